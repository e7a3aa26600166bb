package io.rill.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class AsciiStringTest {

    @Test
    void storesCharactersAboveAsciiAsQuestionMarks() {
        AsciiString s = AsciiString.of("caf\u00e9 \u20ac");
        assertEquals("caf? ?", s.toString());
        assertEquals(6, s.length());
        assertEquals('?', s.charAt(3));
    }

    @Test
    void cachedKeepsTheOriginalStringForToString() {
        String text = "Content-Type";
        assertSame(text, AsciiString.cached(text).toString());
        AsciiString ascii = AsciiString.cached(text);
        assertSame(ascii, AsciiString.of(ascii));
    }

    @Test
    void byteArrayConstructorsCopyOrWrapARange() {
        byte[] bytes = "xxhello!".getBytes(StandardCharsets.US_ASCII);
        AsciiString wrapped = new AsciiString(bytes, 2, 5, false);
        AsciiString copied = new AsciiString(bytes, 2, 5, true);
        assertSame(bytes, wrapped.array());
        assertEquals(2, wrapped.arrayOffset());
        assertEquals(0, copied.arrayOffset());
        assertEquals("hello", wrapped.toString());
        assertEquals(wrapped, copied);
        assertEquals('e', (char) wrapped.byteAt(1));
        assertThrows(IndexOutOfBoundsException.class, () -> wrapped.byteAt(5));
        assertThrows(IndexOutOfBoundsException.class, () -> new AsciiString(bytes, 6, 5, false));
        assertArrayEquals("hello".getBytes(StandardCharsets.US_ASCII), wrapped.toByteArray());
    }

    @Test
    void equalsIsExactAndOnlyBetweenAsciiStrings() {
        AsciiString a = AsciiString.of("Host");
        assertEquals(a, new AsciiString("Host".getBytes(StandardCharsets.US_ASCII)));
        assertNotEquals(a, AsciiString.of("host"));
        assertNotEquals(a, "Host");
        assertTrue(a.contentEquals("Host"));
        assertFalse(a.contentEquals("host"));
        assertTrue(AsciiString.contentEquals("abc", new StringBuilder("abc")));
        assertFalse(AsciiString.contentEquals(null, "abc"));
    }

    @Test
    void comparesIgnoringCaseAcrossCharSequenceTypes() {
        AsciiString a = AsciiString.of("Content-Length");
        assertTrue(a.contentEqualsIgnoreCase("content-length"));
        assertTrue(a.equalsIgnoreCase(AsciiString.of("CONTENT-LENGTH")));
        assertTrue(AsciiString.contentEqualsIgnoreCase(new StringBuilder("cOnTeNt-LeNgTh"), "Content-Length"));
        assertFalse(a.contentEqualsIgnoreCase("content-lengt"));
        assertFalse(AsciiString.contentEqualsIgnoreCase("[", "{")); // differ by 0x20, but are not letters
        assertTrue(AsciiString.contentEqualsIgnoreCase(null, null));
    }

    @Test
    void hashesIgnoringCaseTheSameForStringsAndAsciiStrings() {
        int hash = AsciiString.hashCode("X-Forwarded-For");
        assertEquals(hash, AsciiString.of("x-forwarded-for").hashCode());
        assertEquals(hash, AsciiString.hashCode("X-FORWARDED-FOR"));
        assertEquals(hash, AsciiString.hashCode(new StringBuilder("x-Forwarded-for")));
        assertEquals(AsciiString.hashCode("caf\u00e9"), AsciiString.of("caf?").hashCode());
        byte[] latin1 = {'c', 'a', 'f', (byte) 0xE9};
        assertEquals(AsciiString.hashCode("caf?"), new AsciiString(latin1).hashCode());
        assertNotEquals(AsciiString.hashCode("ab"), AsciiString.hashCode("ba"));
    }

    @Test
    void searchesCharactersAndSubstrings() {
        AsciiString s = AsciiString.of("text/html; charset=utf-8");
        assertEquals(9, s.indexOf(';', 0));
        assertEquals(-1, s.indexOf(';', 10));
        assertEquals(-1, s.indexOf('\u20ac', 0));
        assertEquals(11, s.indexOf("charset", 0));
        assertTrue(s.contains("html"));
        assertTrue(s.startsWith("text/"));
        assertTrue(s.endsWith("utf-8"));
        assertFalse(s.endsWith("UTF-8"));
        assertTrue(s.regionMatches(19, "UTF-8", true));
        assertFalse(s.startsWith("text/html; charset=utf-8; more"));
    }

    @Test
    void mapsCaseAndReturnsItselfWhenNothingChanges() {
        AsciiString lower = AsciiString.of("keep-alive");
        assertSame(lower, lower.toLowerCase());
        assertEquals(AsciiString.of("KEEP-ALIVE"), lower.toUpperCase());
        assertEquals(AsciiString.of("keep-alive"), AsciiString.of("Keep-Alive").toLowerCase());
        assertTrue(AsciiString.isUpperCase((byte) 'Q'));
        assertFalse(AsciiString.isUpperCase((byte) 'q'));
        assertTrue(AsciiString.isLowerCase((byte) 'q'));
    }

    @Test
    void trimsAndSplitsIntoSharedViews() {
        AsciiString s = AsciiString.of(" \t gzip, ,deflate \r\n");
        AsciiString trimmed = s.trim();
        assertEquals("gzip, ,deflate", trimmed.toString());
        assertSame(s.array(), trimmed.array());
        assertEquals(List.of("gzip", " ", "deflate"),
                Arrays.stream(trimmed.split(',')).map(AsciiString::toString).toList());
        assertEquals(List.of("", ""), Arrays.stream(AsciiString.of(",").split(',')).map(Object::toString).toList());
        assertTrue(AsciiString.of(" \r\n ").trim().isEmpty());
        assertEquals(AsciiString.EMPTY, AsciiString.of(" ").trim());
    }

    @Test
    void subSequenceSharesAndChecksBounds() {
        AsciiString s = AsciiString.of("0123456789");
        assertEquals("345", s.subSequence(3, 6).toString());
        assertSame(s, s.subSequence(0, 10));
        assertEquals("89", s.subSequence(8).toString());
        assertThrows(IndexOutOfBoundsException.class, () -> s.subSequence(4, 3));
    }

    @Test
    void parsesNumbersAndQuotesBadInput() {
        assertEquals(1234, AsciiString.of("1234").parseInt());
        assertEquals(-42, AsciiString.of("-42").parseInt());
        assertEquals(Long.MAX_VALUE, AsciiString.of(Long.toString(Long.MAX_VALUE)).parseLong());
        assertEquals(Long.MIN_VALUE, AsciiString.of(Long.toString(Long.MIN_VALUE)).parseLong());
        assertEquals(255, AsciiString.of("ff").parseLong(0, 2, 16));
        assertEquals(12, AsciiString.of("x12y").parseLong(1, 3, 10));

        NumberFormatException e = assertThrows(NumberFormatException.class, () -> AsciiString.of("12a").parseInt());
        assertTrue(e.getMessage().contains("\"12a\""), e.getMessage());
        assertThrows(NumberFormatException.class, () -> AsciiString.of("").parseLong());
        assertThrows(NumberFormatException.class, () -> AsciiString.of("-").parseLong());
        assertThrows(NumberFormatException.class, () -> AsciiString.of(" 1").parseLong());
        assertThrows(NumberFormatException.class, () -> AsciiString.of("9223372036854775808").parseLong());
        assertThrows(NumberFormatException.class, () -> AsciiString.of("2147483648").parseInt());
    }

    @Test
    void ordersLikeString() {
        assertTrue(AsciiString.of("abc").compareTo("abd") < 0);
        assertTrue(AsciiString.of("abc").compareTo("ab") > 0);
        assertEquals(0, AsciiString.of("abc").compareTo(new StringBuilder("abc")));
    }
}
