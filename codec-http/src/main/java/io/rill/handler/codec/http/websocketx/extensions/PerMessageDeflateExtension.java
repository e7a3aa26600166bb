package io.rill.handler.codec.http.websocketx.extensions;

import io.rill.channel.ChannelHandler;
import io.rill.handler.codec.http.websocketx.WebSocketExtension;
import io.rill.handler.codec.http.websocketx.WebSocketFrame;

/**
 * permessage-deflate as agreed for one connection: the response element and, for each new
 * connection's pipeline, a compressor and a decompressor set up from the agreed parameters as
 * seen from this endpoint's side.
 */
final class PerMessageDeflateExtension implements WebSocketExtension {

    private final PerMessageDeflateParams agreed;
    private final int level;
    /** The window bits this endpoint compresses with. */
    private final int ownWindowBits;
    /** This endpoint resets its compressor after each message. */
    private final boolean ownNoContextTakeover;
    /** The peer resets its compressor after each message, so the decompressor may too. */
    private final boolean peerNoContextTakeover;
    private final int maxInflatedMessage;

    PerMessageDeflateExtension(PerMessageDeflateParams agreed, int level, int ownWindowBits, boolean ownNoContextTakeover,
            boolean peerNoContextTakeover, int maxInflatedMessage) {
        this.agreed = agreed;
        this.level = level;
        this.ownWindowBits = ownWindowBits;
        this.ownNoContextTakeover = ownNoContextTakeover;
        this.peerNoContextTakeover = peerNoContextTakeover;
        this.maxInflatedMessage = maxInflatedMessage;
    }

    @Override
    public int rsv() {
        return WebSocketFrame.RSV1;
    }

    @Override
    public String responseElement() {
        return agreed.toElement();
    }

    @Override
    public ChannelHandler newDecoder() {
        return new PerMessageDeflateDecoder(new MessageInflater(maxInflatedMessage, peerNoContextTakeover));
    }

    @Override
    public ChannelHandler newEncoder() {
        return new PerMessageDeflateEncoder(new MessageDeflater(level, ownWindowBits, ownNoContextTakeover));
    }

    @Override
    public String toString() {
        return agreed.toElement() + " (level " + level + ", own window 2^" + ownWindowBits + ", inflate up to "
                + maxInflatedMessage + " bytes)";
    }
}
