package io.rill.handler.codec.http;

/** A request head. */
public class DefaultHttpRequest extends AbstractHttpMessage implements HttpRequest {

    private RequestLine line;

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
        super(headers);
        line = new RequestLine(checkMethod(method), checkUri(uri), checkVersion(version));
    }

    /** A request head from a line whose every part the decoder has checked already. */
    DefaultHttpRequest(RequestLine line, HttpHeaders headers) {
        super(headers);
        this.line = line;
    }

    @Override
    public HttpMethod method() {
        return line.method();
    }

    @Override
    public DefaultHttpRequest setMethod(HttpMethod method) {
        line = line.withMethod(checkMethod(method));
        return this;
    }

    private static HttpMethod checkMethod(HttpMethod method) {
        if (method == null) {
            throw new NullPointerException("method");
        }
        return method;
    }

    @Override
    public String uri() {
        return line.uri();
    }

    @Override
    public HttpVersion protocolVersion() {
        return line.version();
    }

    /**
     * @throws IllegalArgumentException if the target has a space or control character, which would
     *                                  split or corrupt the request line
     */
    @Override
    public DefaultHttpRequest setUri(String uri) {
        line = line.withUri(checkUri(uri));
        return this;
    }

    private static String checkUri(String uri) {
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
        return uri;
    }

    @Override
    public DefaultHttpRequest setProtocolVersion(HttpVersion version) {
        line = line.withVersion(checkVersion(version));
        return this;
    }

    @Override
    public String toString() {
        return appendHeaders(new StringBuilder(getClass().getSimpleName()).append('(').append(decoderResult())
                .append(")\n").append(method()).append(' ').append(uri()).append(' ').append(protocolVersion()),
                headers()).toString();
    }
}
