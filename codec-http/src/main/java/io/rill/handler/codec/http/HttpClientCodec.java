package io.rill.handler.codec.http;

import java.util.ArrayDeque;

import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.ByteToMessageDecoder;
import io.rill.util.concurrent.Promise;

/**
 * The client side of HTTP/1.1 in one handler: an {@link HttpRequestEncoder} outbound and an
 * {@link HttpResponseDecoder} inbound that pairs each final response with the request it answers,
 * so a response to {@code HEAD} is read without a body and a 2xx answer to {@code CONNECT} turns
 * the connection into a tunnel, and a 101 is taken only in answer to a request that offered an upgrade.
 * Interim (1xx) responses pair with nothing (CVE-2026-42584).
 */
public class HttpClientCodec extends DecoderDelegatingHandler {

    /** Methods of the requests sent and not yet answered, in order. Loop-confined. */
    private final ArrayDeque<HttpMethod> sent = new ArrayDeque<>();
    /** Whether each of those requests offered an upgrade (a 101 answers only those). Loop-confined. */
    private final ArrayDeque<Boolean> offeredUpgrade = new ArrayDeque<>();
    private final HttpRequestEncoder encoder = new HttpRequestEncoder();
    private final ResponseDecoder decoder;

    /** A codec with the default limits, not requiring {@code Host} (which responses do not have). */
    public HttpClientCodec() {
        this(HttpDecoderConfig.DEFAULT.withRequireHost(false));
    }

    /**
     * A codec whose response decoder has the limits of {@code config}.
     *
     * @param config the limits and rules of the response decoder
     */
    public HttpClientCodec(HttpDecoderConfig config) {
        this.decoder = new ResponseDecoder(config);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
        if (msg instanceof HttpRequest request) {
            sent.add(request.method());
            offeredUpgrade.add(request.headers().contains(HttpHeaderNames.UPGRADE));
        }
        encoder.write(ctx, msg, promise);
    }

    @Override
    ByteToMessageDecoder decoder() {
        return decoder;
    }

    private final class ResponseDecoder extends HttpResponseDecoder {
        ResponseDecoder(HttpDecoderConfig config) {
            super(config);
        }

        @Override
        protected HttpMethod requestMethod(HttpResponse response) {
            offeredUpgrade.poll();
            return sent.poll();
        }

        @Override
        protected boolean upgradeOffered(HttpResponse response) {
            sent.poll();
            return Boolean.TRUE.equals(offeredUpgrade.poll());
        }
    }

}
