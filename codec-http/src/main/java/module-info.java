/**
 * HTTP/1.1: the message model ({@link io.rill.handler.codec.http.HttpRequest},
 * {@link io.rill.handler.codec.http.HttpHeaders}, ...), strict request and response decoders,
 * encoders, server and client codecs, aggregation and keep-alive handling.
 */
module io.rill.codec.http {
    requires transitive io.rill.codec;
    requires transitive io.rill.handler;

    exports io.rill.handler.codec.http;
    exports io.rill.handler.codec.http.cookie;
    exports io.rill.handler.codec.http.multipart;
    exports io.rill.handler.codec.http.cors;
}
