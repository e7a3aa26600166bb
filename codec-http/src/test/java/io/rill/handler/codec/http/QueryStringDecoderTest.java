package io.rill.handler.codec.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Paths and parameters out of request targets; escapes, limits, and a round trip with the encoder. */
class QueryStringDecoderTest {

    @Test
    void splitsPathAndParametersInOrder() {
        QueryStringDecoder d = new QueryStringDecoder("/hello%20world/a+b?recipient=w%C3%B6rld&x=1&x=2&flag&empty=#frag");
        assertEquals("/hello world/a+b", d.path());
        assertEquals("/hello%20world/a+b", d.rawPath());
        assertEquals("recipient=w%C3%B6rld&x=1&x=2&flag&empty=", d.rawQuery());
        assertEquals(Map.of("recipient", List.of("wörld"), "x", List.of("1", "2"), "flag", List.of(""),
                "empty", List.of("")), d.parameters());
        assertEquals(List.of("recipient", "x", "flag", "empty"), List.copyOf(d.parameters().keySet()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "/|/|0", "/p?|/p|0", "/p?&&&|/p|0", "?a=1|''|1", "/p#x?a=1|/p|0", "/p?a=1=2|/p|1"})
    void handlesEdges(String uri, String path, int params) {
        QueryStringDecoder d = new QueryStringDecoder(uri);
        assertEquals(path, d.path());
        assertEquals(params, d.parameters().size());
    }

    @Test
    void theFirstEqualsSignSplitsNameFromValue() {
        assertEquals(List.of("1=2"), new QueryStringDecoder("/p?a=1=2").parameters().get("a"));
    }

    @Test
    void aBareQueryStringHasNoPath() {
        QueryStringDecoder d = new QueryStringDecoder("a=1+2&b=%26", false);
        assertEquals("", d.path());
        assertEquals(List.of("1 2"), d.parameters().get("a"));
        assertEquals(List.of("&"), d.parameters().get("b"));
    }

    @Test
    void decodesMultiByteAndSupplementaryCharacters() {
        assertEquals("€ 😀 é", QueryStringDecoder.decodeComponent("%E2%82%AC+%F0%9F%98%80%20%c3%a9"));
        assertEquals("é", QueryStringDecoder.decodeComponent("%E9", StandardCharsets.ISO_8859_1));
        assertEquals("\uFFFD", QueryStringDecoder.decodeComponent("%FF")); // not UTF-8: replaced, not thrown
    }

    @ParameterizedTest
    @ValueSource(strings = {"%", "%4", "a%zz", "%4g", "abc%", "%E2%82%A"})
    void malformedEscapesFailQuotingTheInput(String s) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> QueryStringDecoder.decodeComponent(s));
        assertTrue(e.getMessage().contains('"' + s + '"'), e.getMessage());
        QueryStringDecoder d = new QueryStringDecoder("/p?k=" + s);
        assertThrows(IllegalArgumentException.class, d::parameters);
    }

    @Test
    void moreThanMaxParamsFails() {
        StringBuilder q = new StringBuilder("/p?");
        for (int i = 0; i < 1025; i++) {
            q.append("a&");
        }
        assertThrows(IllegalArgumentException.class, () -> new QueryStringDecoder(q.toString()).parameters());
        assertEquals(1, new QueryStringDecoder(q.substring(0, q.length() - 2)).parameters().size());
        assertThrows(IllegalArgumentException.class,
                () -> new QueryStringDecoder("/p?a&b&c", StandardCharsets.UTF_8, true, 2).parameters());
    }

    @Test
    void parametersCannotBeChanged() {
        Map<String, List<String>> p = new QueryStringDecoder("/p?a=1").parameters();
        assertThrows(UnsupportedOperationException.class, () -> p.put("b", List.of()));
        assertThrows(UnsupportedOperationException.class, () -> p.get("a").add("2"));
    }

    @Test
    void takesAJavaUri() {
        QueryStringDecoder d = new QueryStringDecoder(URI.create("http://h:1/a%2Fb?x=%20#f"));
        assertEquals("/a/b", d.path());
        assertEquals(List.of(" "), d.parameters().get("x"));
    }

    @Test
    void roundTripsWithTheEncoder() {
        String[] values = {"plain", "a b+c", "&=?#%", "wörld €", "😀", "", "line\r\nbreak"};
        QueryStringEncoder e = new QueryStringEncoder("/p");
        for (int i = 0; i < values.length; i++) {
            e.addParam("k" + i + values[i], values[i]);
        }
        e.addParam("bare", null);
        String target = e.toString();
        assertTrue(target.chars().allMatch(c -> c > ' ' && c < 0x7f), target);
        Map<String, List<String>> p = new QueryStringDecoder(target).parameters();
        for (int i = 0; i < values.length; i++) {
            assertEquals(List.of(values[i]), p.get("k" + i + values[i]));
        }
        assertEquals(List.of(""), p.get("bare"));
        assertEquals("/p?q=rill%20%26%20netty", new QueryStringEncoder("/p").addParam("q", "rill & netty").toString());
        assertEquals("/p?a=1&b=2", new QueryStringEncoder("/p?a=1").addParam("b", "2").toUri().toString());
    }
}
