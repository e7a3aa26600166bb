package io.rill.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.rill.channel.embedded.EmbeddedChannel;

class ChannelOptionAndAttributeTest {

    @Test
    void attributeKeysArePooledByNameAndNewInstanceRefusesDuplicates() {
        AttributeKey<String> a = AttributeKey.valueOf("test.user");
        assertSame(a, AttributeKey.valueOf("test.user"));
        assertThrows(IllegalArgumentException.class, () -> AttributeKey.newInstance("test.user"));
        AttributeKey<Integer> fresh = AttributeKey.newInstance("test.fresh");
        assertTrue(AttributeKey.exists("test.fresh"));
        assertEquals("test.fresh", fresh.name());
    }

    @Test
    void attributesSupportAtomicUpdatesAndRemoval() {
        EmbeddedChannel ch = new EmbeddedChannel();
        AttributeKey<String> key = AttributeKey.valueOf("test.attr");
        assertFalse(ch.hasAttr(key));
        Attribute<String> attr = ch.attr(key);
        assertTrue(ch.hasAttr(key));
        assertNull(attr.setIfAbsent("a"));
        assertEquals("a", attr.setIfAbsent("b"));
        assertTrue(attr.compareAndSet("a", "c"));
        assertEquals("c", attr.getAndSet("d"));
        assertEquals("d", attr.getAndRemove());
        assertFalse(ch.hasAttr(key));
        assertNull(ch.attr(key).get());
        ch.finish();
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void setOptionThrowsForWrongTypesAndReportsUnsupportedOptions() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ChannelConfig config = ch.config();
        assertTrue(config.setOption(ChannelOption.WRITE_SPIN_COUNT, 4));
        assertEquals(4, config.getOption(ChannelOption.WRITE_SPIN_COUNT));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> config.setOption((ChannelOption) ChannelOption.AUTO_READ, "yes"));
        assertTrue(e.getMessage().contains("AUTO_READ"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> config.setOption(ChannelOption.MAX_MESSAGES_PER_READ, 0));
        assertFalse(config.setOption(ChannelOption.TCP_NODELAY, true));
        assertNull(config.getOption(ChannelOption.TCP_NODELAY));
        assertTrue(config.getOptions().containsKey(ChannelOption.ALLOCATOR));
        assertThrows(IllegalArgumentException.class, () -> ChannelOption.newInstance("TCP_NODELAY", Boolean.class));
        ch.finish();
    }

    @Test
    void channelIdsAreUniqueWithShortAndLongForms() {
        ChannelId a = ChannelId.newInstance();
        ChannelId b = ChannelId.newInstance();
        assertFalse(a.equals(b));
        assertTrue(a.asLongText().endsWith(a.asShortText()));
        assertEquals(5, a.asLongText().split("-").length);
    }
}
