package io.rill.handler.codec.http.websocketx;

import io.rill.handler.codec.DecoderException;

/**
 * The peer broke RFC 6455 framing, or exceeded a limit; {@link #closeStatus()} is the code the
 * decoder sent in its close frame before closing the connection.
 */
public final class CorruptedWebSocketFrameException extends DecoderException {

    /** The serialization version. */
    private static final long serialVersionUID = 1L;

    /** The close code sent to the peer. */
    private final int closeStatus;

    /**
     * @param closeStatus the close code sent to the peer (1002, 1007 or 1009)
     * @param message what was wrong, quoting the offending value
     */
    public CorruptedWebSocketFrameException(int closeStatus, String message) {
        super(message);
        this.closeStatus = closeStatus;
    }

    /** @return the close code sent to the peer */
    public int closeStatus() {
        return closeStatus;
    }
}
