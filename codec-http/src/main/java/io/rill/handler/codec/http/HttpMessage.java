package io.rill.handler.codec.http;

/** The head of a request or response: version and header fields. */
public interface HttpMessage extends HttpObject {

    /**
     * The HTTP version of the message.
     *
     * @return the version
     */
    HttpVersion protocolVersion();

    /**
     * Replaces the HTTP version.
     *
     * @param version the new version; not null
     * @return this message
     */
    HttpMessage setProtocolVersion(HttpVersion version);

    /**
     * The header fields; change them in place. A message is confined to one thread at a time, and its
     * headers with it (unless they were made read-only to share them).
     *
     * @return the headers
     */
    HttpHeaders headers();
}
