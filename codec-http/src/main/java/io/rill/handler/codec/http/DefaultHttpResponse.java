package io.rill.handler.codec.http;

/** A response head. */
public class DefaultHttpResponse extends AbstractHttpMessage implements HttpResponse {

    private HttpVersion version;
    private HttpResponseStatus status;

    /**
     * A response head with empty, validating headers.
     *
     * @param version the HTTP version
     * @param status  the status
     */
    public DefaultHttpResponse(HttpVersion version, HttpResponseStatus status) {
        this(version, status, new HttpHeaders());
    }

    /**
     * A response head with the given headers.
     *
     * @param version the HTTP version
     * @param status  the status
     * @param headers the header fields, e.g. read-only ones shared by many responses
     */
    public DefaultHttpResponse(HttpVersion version, HttpResponseStatus status, HttpHeaders headers) {
        super(headers);
        this.version = checkVersion(version);
        setStatus(status);
    }

    @Override
    public HttpVersion protocolVersion() {
        return version;
    }

    @Override
    public HttpResponseStatus status() {
        return status;
    }

    @Override
    public DefaultHttpResponse setStatus(HttpResponseStatus status) {
        if (status == null) {
            throw new NullPointerException("status");
        }
        this.status = status;
        return this;
    }

    @Override
    public DefaultHttpResponse setProtocolVersion(HttpVersion version) {
        this.version = checkVersion(version);
        return this;
    }

    @Override
    public String toString() {
        return appendHeaders(new StringBuilder(getClass().getSimpleName()).append('(').append(decoderResult())
                .append(")\n").append(protocolVersion()).append(' ').append(status), headers()).toString();
    }
}
