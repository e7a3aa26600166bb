package io.rill.handler.codec.http;

/** A request head: method, request target and version, then header fields. */
public interface HttpRequest extends HttpMessage {

    /**
     * The request method.
     *
     * @return the method, e.g. {@link HttpMethod#GET}
     */
    HttpMethod method();

    /**
     * Replaces the method.
     *
     * @param method the new method; not null
     * @return this request
     */
    HttpRequest setMethod(HttpMethod method);

    /**
     * The request target as sent: origin form ({@code /path?query}) or absolute, authority or {@code *}.
     *
     * @return the request target
     */
    String uri();

    /**
     * Replaces the request target.
     *
     * @param uri the new target; it may not contain control characters or spaces
     * @return this request
     * @throws IllegalArgumentException if the target holds a character that could split the message
     */
    HttpRequest setUri(String uri);

    @Override
    HttpRequest setProtocolVersion(HttpVersion version);
}
