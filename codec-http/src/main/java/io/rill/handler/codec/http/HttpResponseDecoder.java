package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;

/**
 * Decodes responses (see {@link HttpObjectDecoder}). A 1xx response other than 101 is interim: it
 * has no body and the real response follows. After 101 (and after a 2xx answer to CONNECT) the
 * connection carries another protocol, passed on as raw {@link ByteBuf}s. 204 and 304 never have a
 * body, nor has a response to HEAD; {@link #requestMethod} tells which request a response answers.
 * A body without a length runs to the close.
 */
public class HttpResponseDecoder extends HttpObjectDecoder {

    /** A decoder with the default limits, not requiring {@code Host} (which responses do not have). */
    public HttpResponseDecoder() {
        this(HttpDecoderConfig.DEFAULT.withRequireHost(false));
    }

    /**
     * A decoder with the limits of {@code config}.
     *
     * @param config the limits and rules
     */
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
        if (code == 101) {
            // RFC 9110 §15.2.2 and §7.8: only an answer to a request that offered Upgrade, naming the protocol.
            if (!message.headers().contains(HttpHeaderNames.UPGRADE) || !upgradeOffered(response)) {
                throw HttpFraming.reject("101 Switching Protocols without an Upgrade field or to a request that"
                        + " offered none", message);
            }
            return BodyFraming.UPGRADE;
        }
        if (response.status().isInformational()) {
            return noBody(message); // interim: it answers no request yet (CVE-2026-42584)
        }
        HttpMethod method = requestMethod(response);
        if (HttpMethod.CONNECT.equals(method) && code < 300) {
            return BodyFraming.UPGRADE;
        }
        if (code == 204 || code == 304 || HttpMethod.HEAD.equals(method)) {
            return noBody(message);
        }
        return HttpFraming.of(message, false, BodyFraming.UNTIL_CLOSE);
    }

    /** Framing fields on a response that cannot have a body describe one that is not there: check, then ignore them. */
    private static BodyFraming noBody(HttpMessage message) {
        HttpFraming.of(message, false, BodyFraming.NONE);
        return BodyFraming.NONE;
    }

    /**
     * The method of the request that {@code response}, a final (non-1xx) response, answers, or
     * null if unknown; called once per final response, in order. {@link HttpClientCodec} answers
     * from the requests it sent.
     *
     * @param response the head of a final response
     * @return the request's method, or null
     */
    protected HttpMethod requestMethod(HttpResponse response) {
        return null;
    }

    /**
     * Whether the request that {@code response}, a 101, answers offered an upgrade; it is consumed
     * like a final response's request. {@link HttpClientCodec} answers from the requests it sent; this
     * decoder alone does not know them and says yes.
     *
     * @param response the head of a 101 response
     * @return whether the request carried an {@code Upgrade} field
     */
    protected boolean upgradeOffered(HttpResponse response) {
        return true;
    }

    @Override
    protected HttpMessage invalidMessage() {
        return new DefaultHttpResponse(HttpVersion.HTTP_1_0, HttpResponseStatus.BAD_GATEWAY);
    }
}
