package io.rill.handler.codec.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MqttTopicsTest {

    @Test
    void filtersPlaceWildcardsOnWholeLevels() {
        for (String ok : new String[] {"#", "+", "a/#", "+/+", "/+", "a/+/b", "$share/g/a/#", "sport/tennis/+", "a//b", "/"}) {
            assertNull(MqttTopics.checkFilter(ok), ok);
        }
        for (String bad : new String[] {"", "a#", "a/#/b", "a+", "+a", "a/b+", "##", "$share/g", "$share//a", "$share/g+/a", "$share/g/"}) {
            assertNotNull(MqttTopics.checkFilter(bad), bad);
        }
        assertNotNull(MqttTopics.checkName("a/+"));
        assertNotNull(MqttTopics.checkName(""));
        assertNull(MqttTopics.checkName("a/b c/$d"));
    }

    @Test
    void matchingFollowsSection4_7() {
        assertMatch(true, "sport/tennis/player1/#", "sport/tennis/player1");
        assertMatch(true, "sport/tennis/player1/#", "sport/tennis/player1/ranking/wimbledon");
        assertMatch(true, "sport/#", "sport");
        assertMatch(true, "#", "a/b/c");
        assertMatch(true, "sport/+", "sport/");
        assertMatch(false, "sport/+", "sport");
        assertMatch(true, "+/+", "/finance");
        assertMatch(true, "/+", "/finance");
        assertMatch(false, "+", "/finance");
        assertMatch(true, "a/+/c", "a/b/c");
        assertMatch(false, "a/+/c", "a/b/d");
        assertMatch(false, "a/b", "a/bc");
        assertMatch(false, "a/bc", "a/b");
        assertMatch(false, "#", "$SYS/uptime");
        assertMatch(false, "+/uptime", "$SYS/uptime");
        assertMatch(true, "$SYS/#", "$SYS/uptime");
        assertMatch(true, "a//b", "a//b");
        assertMatch(false, "a/b/c", "a/b");
    }

    @Test
    void aSharedSubscriptionNamesItsFilterAfterTheShareName() {
        assertTrue(MqttTopics.isShared("$share/g/a/#"));
        assertEquals("a/#", MqttTopics.sharedFilter("$share/g/a/#"));
        assertEquals("/x", MqttTopics.sharedFilter("$share/workers//x"));
        assertThrows(IllegalArgumentException.class, () -> MqttTopics.sharedFilter("a/#"));
        assertThrows(IllegalArgumentException.class, () -> MqttTopics.sharedFilter("$share/g"));
    }

    private static void assertMatch(boolean expected, String filter, String name) {
        assertEquals(expected, MqttTopics.matches(filter, name), filter + " vs " + name);
    }
}
