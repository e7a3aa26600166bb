package io.rill.example;

import io.rill.handler.codec.http2.Http2Headers;

/**
 * The {@code server} and {@code date} fields of the examples' HTTP/2 answers, as their HTTP/1.1
 * answers carry them ({@link HttpHelloServer.HelloResponse}): an origin server with a clock sends
 * {@code date} (RFC 9110 section 6.6.1), and {@code server} names what answered.
 */
final class ServerFields {

    private ServerFields() {
    }

    /** Adds {@code server} and this second's {@code date} to {@code response} and returns it. */
    static Http2Headers add(Http2Headers response) {
        return response.add("server", HttpHelloServer.HelloResponse.SERVER)
                .add("date", HttpHelloServer.HttpDateCache.now());
    }
}
