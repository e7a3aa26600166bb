package io.rill.util;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class InternalLoggerTest {

    @Test
    void replacesPlaceholdersInOrderAndCountsTheArgumentsUsed() {
        assertFormats("a=1, b=two", 2, "a={}, b={}", 1, "two");
        assertFormats("no placeholders", 0, "no placeholders", "unused");
        assertFormats("x={} and {}", 1, "x={} and {}", "{}"); // an argument is not rescanned
        assertFormats("only one: 1 and {}", 1, "only one: {} and {}", 1);
        assertFormats("null: null", 1, "null: {}", (Object) null);
    }

    @Test
    void namesTheLoggerAfterTheClass() {
        assertEquals(InternalLoggerTest.class.getName(), InternalLogger.get(InternalLoggerTest.class).name());
    }

    @Test
    void takesAnyNameForALoggerThatNoClassNames() {
        assertEquals("wire", InternalLogger.get("wire").name());
        assertEquals("wire", InternalLogger.get("wire").getName());
        assertEquals("name", org.junit.jupiter.api.Assertions.assertThrows(NullPointerException.class,
                () -> InternalLogger.get((String) null)).getMessage());
    }

    private static void assertFormats(String expected, int used, String pattern, Object... args) {
        StringBuilder out = new StringBuilder();
        assertEquals(used, InternalLogger.format(pattern, args, out));
        assertEquals(expected, out.toString());
    }
}
