package io.rill.handler.codec.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.fuzz.FuzzInput;

/**
 * Fuzz targets for the text parsers of HTTP/1.1 that work on strings: the query-string decoder
 * (only an {@link IllegalArgumentException} for bad escapes or too many parameters, never more
 * than {@code maxParams} parameters, and encode → decode gives the same parameters) and the HTTP
 * date parser (never throws; a parsed date formats and parses to the same instant).
 */
class HttpTextFuzzTest {

    private static final int MAX_PARAMS = 16;

    @FuzzTest
    void queryString(byte[] input) {
        boolean hasPath = input.length == 0 || (input[0] & 1) == 0;
        String uri = new String(FuzzInput.payload(input), StandardCharsets.UTF_8);
        Map<String, List<String>> params;
        try {
            params = new QueryStringDecoder(uri, StandardCharsets.UTF_8, hasPath, MAX_PARAMS).parameters();
        } catch (IllegalArgumentException expected) {
            return;
        }
        int count = params.values().stream().mapToInt(List::size).sum();
        assertTrue(count <= MAX_PARAMS, "more parameters than maxParams: " + count);
        QueryStringEncoder encoder = new QueryStringEncoder("/p");
        params.forEach((name, values) -> values.forEach(v -> encoder.addParam(name, v)));
        String encoded = encoder.toString();
        assertEquals(params, new QueryStringDecoder(encoded, StandardCharsets.UTF_8, true, MAX_PARAMS).parameters(),
                () -> "decode, encode, decode: " + encoded);
    }

    @FuzzTest
    void date(byte[] input) {
        String text = new String(FuzzInput.payload(input), StandardCharsets.ISO_8859_1);
        Long millis = DateFormatter.parse(text);
        if (millis == null) {
            return;
        }
        String formatted = DateFormatter.format(millis);
        assertEquals(millis, DateFormatter.parse(formatted), () -> text + " parsed, formatted as " + formatted);
    }
}
