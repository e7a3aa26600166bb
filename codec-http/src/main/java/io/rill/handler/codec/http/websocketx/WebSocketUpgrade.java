package io.rill.handler.codec.http.websocketx;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelPipeline;
import io.rill.handler.codec.http.HttpContentCompressor;
import io.rill.handler.codec.http.HttpContentDecompressor;
import io.rill.handler.codec.http.HttpObjectAggregator;
import io.rill.handler.codec.http.HttpRequestRecorder;
import io.rill.handler.codec.http.HttpServerExpectContinueHandler;
import io.rill.handler.codec.http.HttpServerKeepAliveHandler;
import io.rill.handler.codec.http.cors.CorsHandler;

/** Swaps the HTTP/1 handlers of a pipeline for the WebSocket ones ({@link WebSocketHandlers}), on both sides. */
final class WebSocketUpgrade {

    private WebSocketUpgrade() {
    }

    /**
     * Puts the {@linkplain WebSocketHandlers#afterHandshake WebSocket handlers} right after
     * {@code http1}, removes {@code self}, {@code http1} and, between them, Rill's own handlers of
     * HTTP messages ({@link #isHttpMessageHandler}), and fires {@code event} from the control
     * handler toward the application. Any other handler between them (the application's,
     * say an index page) stays where it is, for the application to remove when it wants to: a
     * handler that removes itself on {@code event}, as Netty code does, finds itself still there.
     * The HTTP codec goes last: it passes the bytes it read past the handshake on to the new decoder.
     */
    static void apply(ChannelHandlerContext self, ChannelHandlerContext http1, WebSocketDecoderConfig config,
            List<WebSocketExtension> extensions, Duration closeTimeout, Object event) {
        ChannelPipeline pipeline = self.pipeline();
        List<String> names = pipeline.names();
        List<String> old = new ArrayList<>();
        old.add(http1.name());
        for (String name : names.subList(names.indexOf(http1.name()) + 1, names.indexOf(self.name()))) {
            if (isHttpMessageHandler(pipeline.get(name))) {
                old.add(name);
            }
        }
        old.add(self.name());
        List<ChannelHandler> added = WebSocketHandlers.afterHandshake(config, extensions, closeTimeout);
        WebSocketControlHandler control = (WebSocketControlHandler) added.get(added.size() - 1);
        String after = http1.name();
        for (ChannelHandler h : added) {
            pipeline.addAfter(after, null, h);
            after = pipeline.context(h).name();
        }
        for (int i = old.size() - 1; i >= 0; i--) {
            if (pipeline.context(old.get(i)) != null) {
                pipeline.remove(old.get(i));
            }
        }
        pipeline.context(control).fireUserEventTriggered(event);
    }

    /**
     * Rill's handlers that only deal in HTTP messages, which a WebSocket connection no longer
     * carries: the upgrade removes them when they sit between the HTTP codec and the protocol
     * handler. A subclass counts as one (it is still that handler).
     */
    static boolean isHttpMessageHandler(ChannelHandler h) {
        return h instanceof HttpObjectAggregator || h instanceof HttpContentCompressor
                || h instanceof HttpContentDecompressor || h instanceof HttpServerKeepAliveHandler
                || h instanceof HttpServerExpectContinueHandler || h instanceof HttpRequestRecorder
                || h instanceof CorsHandler;
    }
}
