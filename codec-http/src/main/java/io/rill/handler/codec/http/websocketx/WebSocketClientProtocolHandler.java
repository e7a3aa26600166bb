package io.rill.handler.codec.http.websocketx;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.http.HttpClientCodec;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpResponse;
import io.rill.handler.codec.http.websocketx.internal.ClientHandshakeWait;
import io.rill.util.concurrent.Future;

/**
 * Opens a WebSocket over an HTTP/1.1 client connection. Put it after {@link HttpClientCodec},
 * before the application; when the channel becomes active it sends the upgrade request of its
 * {@link WebSocketClientHandshaker}. On a valid {@code 101} the {@link HttpClientCodec}, this
 * handler and Rill's HTTP message handlers between them (aggregator, decompressor) are replaced by
 * the frame decoder (expecting unmasked frames), the masking encoder, the extensions' handlers and
 * the handler that answers pings and completes the close handshake; other handlers between them
 * stay, for the application to remove (as on the server, see {@link WebSocketServerProtocolHandler});
 * {@link WebSocketHandshakeComplete}
 * reaches the application and {@link #handshakeFuture()} succeeds. Any other answer, or none
 * within the handshake timeout, fails the future with a {@link WebSocketHandshakeException} and
 * closes the connection.
 *
 * <p>One instance per connection; all methods run on the event loop.
 */
public final class WebSocketClientProtocolHandler implements ChannelHandler {

    private final WebSocketClientHandshaker handshaker;
    private final WebSocketDecoderConfig decoderConfig;
    private final Duration closeTimeout;
    private final ClientHandshakeWait wait;

    /**
     * @param handshaker makes the request and checks the answer
     * @param maxFramePayload the largest frame accepted from the server (larger: close 1009)
     * @param maxMessagePayload the largest message accepted from the server
     * @param handshakeTimeout how long to wait for the {@code 101}
     * @param closeTimeout how long to wait for the server's close frame after ours
     */
    public WebSocketClientProtocolHandler(WebSocketClientHandshaker handshaker, int maxFramePayload,
            int maxMessagePayload, Duration handshakeTimeout, Duration closeTimeout) {
        this.handshaker = handshaker;
        this.decoderConfig = new WebSocketDecoderConfig(maxFramePayload, maxMessagePayload, false, 0);
        this.wait = new ClientHandshakeWait(handshakeTimeout, "the WebSocket upgrade");
        this.closeTimeout = closeTimeout;
    }

    /**
     * A handler for {@code uri} without subprotocols or extensions, with 64 KiB limits and 10 s timeouts.
     *
     * @param uri a {@code ws:} or {@code wss:} URI
     * @return a new handler
     */
    public static WebSocketClientProtocolHandler of(URI uri) {
        return of(uri, WebSocketExtensionNegotiator.NONE);
    }

    /**
     * A handler for {@code uri} without subprotocols, offering what {@code extensions} offers
     * (permessage-deflate, say), with 64 KiB limits and 10 s timeouts.
     *
     * @param uri a {@code ws:} or {@code wss:} URI
     * @param extensions makes the {@code Sec-WebSocket-Extensions} offer and checks the answer
     * @return a new handler
     */
    public static WebSocketClientProtocolHandler of(URI uri, WebSocketExtensionNegotiator extensions) {
        return new WebSocketClientProtocolHandler(new WebSocketClientHandshaker(uri, List.of(), new HttpHeaders(),
                extensions.offer(), extensions), WebSocketDecoderConfig.DEFAULT_MAX_PAYLOAD,
                WebSocketDecoderConfig.DEFAULT_MAX_PAYLOAD, Duration.ofSeconds(10), Duration.ofSeconds(10));
    }

    /** @return succeeds once the connection speaks WebSocket; fails if the handshake does not complete */
    public Future<Void> handshakeFuture() {
        return wait.future();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        wait.added(ctx, handshaker::newRequest);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        wait.request(ctx, handshaker::newRequest);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!(msg instanceof HttpResponse response)) {
            ReferenceCountUtil.release(msg); // an answer without a head is not an upgrade: it cannot get here intact
            return;
        }
        if (response.status().isInformational() && response.status().code() != 101) {
            ReferenceCountUtil.release(msg); // 1xx interim answers precede the real one
            return;
        }
        WebSocketClientHandshaker.Agreement agreement;
        try {
            agreement = handshaker.check(response);
        } catch (WebSocketHandshakeException e) {
            ReferenceCountUtil.release(msg);
            wait.fail(ctx, e);
            return;
        }
        ReferenceCountUtil.release(msg);
        wait.cancelTimer();
        ChannelHandlerContext http1 = ctx.pipeline().context(HttpClientCodec.class);
        if (http1 == null) {
            wait.fail(ctx, new WebSocketHandshakeException("WebSocketClientProtocolHandler needs an HttpClientCodec before it"));
            return;
        }
        URI uri = handshaker.uri();
        WebSocketUpgrade.apply(ctx, http1, decoderConfig, agreement.extensions(), closeTimeout,
                new WebSocketHandshakeComplete(uri.getRawPath(), response.headers(), agreement.subprotocol()));
        wait.succeed();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        wait.fail(ctx, new WebSocketHandshakeException("connection closed before the WebSocket handshake completed"));
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        wait.cancelTimer();
    }
}
