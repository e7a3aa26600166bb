package io.rill.handler.codec.http.websocketx;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.rill.channel.ChannelHandler;

/**
 * The handlers that carry a WebSocket once its opening handshake succeeded, whatever carried the
 * handshake. The protocol handlers of this package put them in place of the HTTP/1.1 codec; a
 * transport with a handshake of its own, such as WebSocket over an HTTP/2 stream (RFC 8441), puts
 * them after a handler that turns its messages into the connection's bytes and back.
 */
public final class WebSocketHandlers {

    private WebSocketHandlers() {
    }

    /**
     * New handlers for one channel, in pipeline order: the {@link WebSocketFrameDecoder} (allowing
     * the RSV bits the extensions claim), the extensions' decoders, the {@link WebSocketFrameEncoder},
     * the extensions' encoders, and last the handler that answers pings, completes the close
     * handshake and keeps control frames from the application. A write meets the first listed
     * extension first (RFC 6455 §9.1: they apply in the order listed); a read undoes them in
     * reverse. The handshake's event ({@link WebSocketHandshakeComplete}) is for the application:
     * fire it from the last handler's context once all of them are in the pipeline.
     *
     * @param config the decoder's limits; a config that expects masked frames makes a server's
     *        handlers (frames sent unmasked), one that does not a client's (frames sent masked,
     *        RFC 6455 §5.1)
     * @param extensions the extensions the handshake agreed, in the order they were listed
     * @param closeTimeout how long to wait for the peer's close frame after sending ours
     * @return the handlers, a new modifiable list
     */
    public static List<ChannelHandler> afterHandshake(WebSocketDecoderConfig config,
            List<WebSocketExtension> extensions, Duration closeTimeout) {
        int rsv = 0;
        for (WebSocketExtension e : extensions) {
            rsv |= e.rsv();
        }
        List<ChannelHandler> added = new ArrayList<>();
        added.add(new WebSocketFrameDecoder(config.withAllowedRsv(rsv)));
        for (int i = extensions.size() - 1; i >= 0; i--) {
            added.add(extensions.get(i).newDecoder());
        }
        added.add(new WebSocketFrameEncoder(!config.expectMaskedFrames()));
        for (int i = extensions.size() - 1; i >= 0; i--) {
            added.add(extensions.get(i).newEncoder());
        }
        added.add(new WebSocketControlHandler(closeTimeout));
        return added;
    }
}
