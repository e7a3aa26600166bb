package io.rill.handler.codec.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import io.rill.handler.codec.http.HttpResponseStatus;

/** The {@code :status} field takes HTTP/1.1's status code text as it is. */
class Http2HeadersStatusTest {

    @Test
    void takesTheCodeAsTextOfAnHttpResponseStatus() {
        Http2Headers headers = new Http2Headers().status(HttpResponseStatus.NO_CONTENT.codeAsText());
        assertEquals("204", headers.status().toString());
    }
}
