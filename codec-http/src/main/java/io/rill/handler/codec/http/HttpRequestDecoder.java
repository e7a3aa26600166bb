package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;
import io.rill.util.AsciiString;

/**
 * Decodes requests (see {@link HttpObjectDecoder}). Beyond the grammar it enforces what RFC 9112
 * asks of a server: exactly one {@code Host} in HTTP/1.1 and at most one in HTTP/1.0 (§3.2), unambiguous framing (§6), and
 * no body unless {@code Content-Length} or {@code Transfer-Encoding} announces one.
 */
public class HttpRequestDecoder extends HttpObjectDecoder {

    /** A decoder with the strict default limits ({@link HttpDecoderConfig#DEFAULT}). */
    public HttpRequestDecoder() {
        this(HttpDecoderConfig.DEFAULT);
    }

    /**
     * A decoder with the limits of {@code config}.
     *
     * @param config the limits and rules
     */
    public HttpRequestDecoder(HttpDecoderConfig config) {
        super(config);
    }

    @Override
    protected HttpMessage parseStartLine(ByteBuf in, int at, int length) {
        return parser().parseRequestLine(in, at, length);
    }

    @Override
    protected HttpResponseStatus startLineTooLongStatus() {
        return HttpResponseStatus.URI_TOO_LONG;
    }

    @Override
    protected BodyFraming framing(HttpMessage message) {
        if (config.requireHost()) {
            HttpHeaders h = message.headers();
            int hosts = 0;
            for (int i = 0; i < h.size(); i++) {
                if (AsciiString.contentEqualsIgnoreCase(h.nameAt(i), HttpHeaderNames.HOST)) {
                    hosts++;
                }
            }
            // RFC 9112 §3.2: none is allowed only in HTTP/1.0, more than one in no version.
            boolean http11 = message.protocolVersion().minorVersion() >= 1;
            if (hosts > 1 || hosts == 0 && http11) {
                throw HttpFraming.reject(message.protocolVersion() + " request with " + hosts + " Host fields ("
                        + (http11 ? "exactly one is required" : "at most one is allowed") + ")", message);
            }
        }
        return HttpFraming.of(message, true, BodyFraming.NONE);
    }

    @Override
    protected HttpMessage invalidMessage() {
        return new DefaultHttpRequest(HttpVersion.HTTP_1_0, HttpMethod.GET, "/bad-request");
    }
}
