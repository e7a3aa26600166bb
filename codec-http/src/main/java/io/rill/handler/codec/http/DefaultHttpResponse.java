package io.rill.handler.codec.http;

/** A response head. */
public class DefaultHttpResponse extends AbstractHttpMessage implements HttpResponse {

    private HttpResponseStatus status;

    public DefaultHttpResponse(HttpVersion version, HttpResponseStatus status) {
        this(version, status, new HttpHeaders());
    }

    public DefaultHttpResponse(HttpVersion version, HttpResponseStatus status, HttpHeaders headers) {
        super(version, headers);
        setStatus(status);
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
        super.setProtocolVersion(version);
        return this;
    }

    @Override
    public String toString() {
        return appendHeaders(new StringBuilder(getClass().getSimpleName()).append('(').append(decoderResult())
                .append(")\n").append(protocolVersion()).append(' ').append(status), headers()).toString();
    }
}
