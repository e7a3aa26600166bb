package io.rill.handler.codec.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

import io.rill.handler.codec.http2.Http2Headers;

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

    @Test
    void servesAsAnHttp2StatusField() {
        Http2Headers headers = new Http2Headers().status(HttpResponseStatus.NO_CONTENT.codeAsText());
        assertEquals("204", headers.status().toString());
    }
}
