package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;

/**
 * Decodes responses (see {@link HttpObjectDecoder}). A 1xx response other than 101 is interim: it
 * has no body and the real response follows. After 101 (and after a 2xx answer to CONNECT, when
 * {@link #isContentAlwaysEmpty} says so) the connection carries another protocol, passed on as raw
 * {@link ByteBuf}s. 204 and 304 never have a body; a body without a length runs to the close.
 */
public class HttpResponseDecoder extends HttpObjectDecoder {

    public HttpResponseDecoder() {
        this(HttpDecoderConfig.DEFAULT.withRequireHost(false));
    }

    public HttpResponseDecoder(HttpDecoderConfig config) {
        super(config);
    }

    @Override
    protected HttpMessage parseStartLine(ByteBuf in, int at, int length) {
        return HttpHeadParser.parseStatusLine(in, at, length);
    }

    @Override
    protected HttpResponseStatus startLineTooLongStatus() {
        return HttpResponseStatus.BAD_GATEWAY;
    }

    @Override
    protected BodyFraming framing(HttpMessage message) {
        HttpResponse response = (HttpResponse) message;
        int code = response.status().code();
        if (code == 101 || isTunnelEstablished(response)) {
            return BodyFraming.UPGRADE;
        }
        if (response.status().isInformational() || code == 204 || code == 304 || isContentAlwaysEmpty(response)) {
            // Framing fields on such a response describe a body that is not there; validate, then ignore.
            HttpFraming.of(message, false, BodyFraming.NONE);
            return BodyFraming.NONE;
        }
        return HttpFraming.of(message, false, BodyFraming.UNTIL_CLOSE);
    }

    /** Whether this response can have no body whatever its headers say (a response to HEAD). */
    protected boolean isContentAlwaysEmpty(HttpResponse response) {
        return false;
    }

    /** Whether this response turns the connection into a tunnel (a 2xx answer to CONNECT). */
    protected boolean isTunnelEstablished(HttpResponse response) {
        return false;
    }

    @Override
    protected HttpMessage invalidMessage() {
        return new DefaultHttpResponse(HttpVersion.HTTP_1_0, HttpResponseStatus.BAD_GATEWAY);
    }
}
