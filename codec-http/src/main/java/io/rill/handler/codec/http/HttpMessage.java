package io.rill.handler.codec.http;

/** The head of a request or response: version and header fields. */
public interface HttpMessage extends HttpObject {

    HttpVersion protocolVersion();

    HttpMessage setProtocolVersion(HttpVersion version);

    HttpHeaders headers();
}
