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

/** Swaps the HTTP/1 handlers of a pipeline for the WebSocket ones, on both sides. */
final class WebSocketUpgrade {

    private WebSocketUpgrade() {
    }

    /**
     * Puts decoder, extension decoders, encoder, extension encoders and the control handler right
     * after {@code http1}, removes {@code self}, {@code http1} and, between them, Rill's own
     * handlers of HTTP messages ({@link #isHttpMessageHandler}), and fires {@code event} from the
     * control handler toward the application. Any other handler between them (the application's,
     * say an index page) stays where it is, for the application to remove when it wants to: a
     * handler that removes itself on {@code event}, as Netty code does, finds itself still there.
     * The HTTP codec goes last: it passes the bytes it read past the handshake on to the new decoder.
     */
    static void apply(ChannelHandlerContext self, ChannelHandlerContext http1, WebSocketDecoderConfig config,
            boolean maskOutbound, List<WebSocketExtension> extensions, Duration closeTimeout, Object event) {
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
        List<ChannelHandler> added = handlers(config, maskOutbound, extensions, closeTimeout);
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

    /**
     * The same for a WebSocket on an HTTP/2 stream (RFC 8441): a {@link WebSocketStreamAdapter} (DATA
     * frames to bytes and back) and the WebSocket handlers go right after {@code self}, which is removed.
     */
    static void applyOnStream(ChannelHandlerContext self, WebSocketDecoderConfig config, boolean maskOutbound,
            List<WebSocketExtension> extensions, Duration closeTimeout, Object event) {
        ChannelPipeline pipeline = self.pipeline();
        List<ChannelHandler> added = handlers(config, maskOutbound, extensions, closeTimeout);
        added.add(0, new WebSocketStreamAdapter(closeTimeout));
        String after = self.name();
        for (ChannelHandler h : added) {
            pipeline.addAfter(after, null, h);
            after = pipeline.context(h).name();
        }
        pipeline.remove(self.name());
        pipeline.context(added.get(added.size() - 1)).fireUserEventTriggered(event);
    }

    /** Decoder, extension decoders, encoder, extension encoders and the control handler, last, in pipeline order. */
    private static List<ChannelHandler> handlers(WebSocketDecoderConfig config, boolean maskOutbound,
            List<WebSocketExtension> extensions, Duration closeTimeout) {
        int rsv = 0;
        for (WebSocketExtension e : extensions) {
            rsv |= e.rsv();
        }
        List<ChannelHandler> added = new ArrayList<>();
        added.add(new WebSocketFrameDecoder(config.withAllowedRsv(rsv)));
        // A write meets the first listed extension first (RFC 6455 §9.1: they apply in the order
        // listed); a read undoes them in reverse, the last listed first.
        for (int i = extensions.size() - 1; i >= 0; i--) {
            added.add(extensions.get(i).newDecoder());
        }
        added.add(new WebSocketFrameEncoder(maskOutbound));
        for (int i = extensions.size() - 1; i >= 0; i--) {
            added.add(extensions.get(i).newEncoder());
        }
        added.add(new WebSocketControlHandler(closeTimeout));
        return added;
    }
}
