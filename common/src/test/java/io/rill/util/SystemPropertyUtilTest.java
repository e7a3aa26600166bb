package io.rill.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SystemPropertyUtilTest {

    private static final String KEY = "rill.test.systemPropertyUtil";

    @AfterEach
    void clear() {
        System.clearProperty(KEY);
    }

    @Test
    void returnsTheDefaultWhenUnset() {
        assertNull(SystemPropertyUtil.get(KEY));
        assertEquals("d", SystemPropertyUtil.get(KEY, "d"));
        assertEquals(7, SystemPropertyUtil.getInt(KEY, 7));
        assertEquals(8L, SystemPropertyUtil.getLong(KEY, 8L));
        assertTrue(SystemPropertyUtil.getBoolean(KEY, true));
    }

    @Test
    void parsesTrimmedNumbers() {
        System.setProperty(KEY, " 42 ");
        assertEquals("42", SystemPropertyUtil.get(KEY));
        assertEquals(42, SystemPropertyUtil.getInt(KEY, 0));
        System.setProperty(KEY, "-9000000000");
        assertEquals(-9_000_000_000L, SystemPropertyUtil.getLong(KEY, 0));
    }

    @Test
    void fallsBackToTheDefaultOnUnparsableValues() {
        System.setProperty(KEY, "12k");
        assertEquals(5, SystemPropertyUtil.getInt(KEY, 5));
        assertEquals(6L, SystemPropertyUtil.getLong(KEY, 6L));
        System.setProperty(KEY, "9000000000");
        assertEquals(5, SystemPropertyUtil.getInt(KEY, 5));
        System.setProperty(KEY, "maybe");
        assertTrue(SystemPropertyUtil.getBoolean(KEY, true));
        assertFalse(SystemPropertyUtil.getBoolean(KEY, false));
    }

    @Test
    void readsBooleanSpellingsIncludingABareFlag() {
        for (String yes : new String[] {"true", "YES", "1", ""}) {
            System.setProperty(KEY, yes);
            assertTrue(SystemPropertyUtil.getBoolean(KEY, false), yes);
        }
        for (String no : new String[] {"false", "No", "0"}) {
            System.setProperty(KEY, no);
            assertFalse(SystemPropertyUtil.getBoolean(KEY, true), no);
        }
    }

    @Test
    void rejectsAnEmptyKey() {
        assertThrows(IllegalArgumentException.class, () -> SystemPropertyUtil.get(""));
    }
}
