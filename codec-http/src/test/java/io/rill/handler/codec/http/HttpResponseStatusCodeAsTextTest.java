package io.rill.handler.codec.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class HttpResponseStatusCodeAsTextTest {

    @Test
    void givesTheThreeDigitsOfRegisteredAndUnregisteredStatuses() {
        assertEquals("200", HttpResponseStatus.OK.codeAsText().toString());
        assertEquals("404", HttpResponseStatus.NOT_FOUND.codeAsText().toString());
        assertEquals("299", HttpResponseStatus.valueOf(299).codeAsText().toString());
        assertEquals("599", HttpResponseStatus.valueOf(599, "Custom").codeAsText().toString());
    }

    @Test
    void returnsTheSameInstanceOnEveryCall() {
        assertSame(HttpResponseStatus.OK.codeAsText(), HttpResponseStatus.OK.codeAsText());
    }
}
