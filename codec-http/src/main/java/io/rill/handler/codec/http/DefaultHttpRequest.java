package io.rill.handler.codec.http;

/** A request head. */
public class DefaultHttpRequest extends AbstractHttpMessage implements HttpRequest {

    private HttpMethod method;
    private String uri;

    /**
     * A request head with empty, validating headers.
     *
     * @param version the HTTP version
     * @param method  the method
     * @param uri     the request target
     * @throws IllegalArgumentException if {@code uri} holds a character that could split the message
     */
    public DefaultHttpRequest(HttpVersion version, HttpMethod method, String uri) {
        this(version, method, uri, new HttpHeaders());
    }

    /**
     * A request head with the given headers.
     *
     * @param version the HTTP version
     * @param method  the method
     * @param uri     the request target
     * @param headers the header fields
     * @throws IllegalArgumentException if {@code uri} holds a character that could split the message
     */
    public DefaultHttpRequest(HttpVersion version, HttpMethod method, String uri, HttpHeaders headers) {
        super(version, headers);
        setMethod(method);
        setUri(uri);
    }

    @Override
    public HttpMethod method() {
        return method;
    }

    @Override
    public DefaultHttpRequest setMethod(HttpMethod method) {
        if (method == null) {
            throw new NullPointerException("method");
        }
        this.method = method;
        return this;
    }

    @Override
    public String uri() {
        return uri;
    }

    /**
     * @throws IllegalArgumentException if the target has a space or control character, which would
     *                                  split or corrupt the request line
     */
    @Override
    public DefaultHttpRequest setUri(String uri) {
        if (uri == null) {
            throw new NullPointerException("uri");
        }
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c <= ' ' || c == 0x7f) {
                throw new IllegalArgumentException("request target with " + HttpHeaderValidation.describe(c) + " at "
                        + i + ": \"" + HttpHeaderValidation.printable(uri) + '"');
            }
        }
        this.uri = uri;
        return this;
    }

    @Override
    public DefaultHttpRequest setProtocolVersion(HttpVersion version) {
        super.setProtocolVersion(version);
        return this;
    }

    @Override
    public String toString() {
        return appendHeaders(new StringBuilder(getClass().getSimpleName()).append('(').append(decoderResult())
                .append(")\n").append(method).append(' ').append(uri).append(' ').append(protocolVersion()),
                headers()).toString();
    }
}
