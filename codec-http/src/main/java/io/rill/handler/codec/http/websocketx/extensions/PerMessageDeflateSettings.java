package io.rill.handler.codec.http.websocketx.extensions;

import io.rill.handler.codec.http.websocketx.WebSocketDecoderConfig;

/**
 * The settings both permessage-deflate negotiators' builders take, with their defaults and range
 * checks. Each builder setter swaps in a new value, so a built negotiator keeps the settings its
 * builder had at {@code build()} and is immutable without copying anything.
 *
 * @param level the DEFLATE level, 0 (stored) to 9 (smallest)
 * @param clientNoContextTakeover the client resets its history per message: offered by a client,
 *        imposed by a server
 * @param serverMaxWindowBits the server's LZ77 window, 8..15
 * @param clientMaxWindowBits the client's LZ77 window, 8..15
 * @param maxInflatedMessage the most bytes one received message may inflate to, above 0
 */
record PerMessageDeflateSettings(int level, boolean clientNoContextTakeover, int serverMaxWindowBits,
        int clientMaxWindowBits, int maxInflatedMessage) {

    /** Level 6, full windows, context kept, inflated messages up to the decoder's default payload limit. */
    static final PerMessageDeflateSettings DEFAULTS =
            new PerMessageDeflateSettings(6, false, 15, 15, WebSocketDecoderConfig.DEFAULT_MAX_PAYLOAD);

    PerMessageDeflateSettings {
        if (level < 0 || level > 9) {
            throw new IllegalArgumentException("compression level " + level + " (expected 0..9)");
        }
        checkBits(serverMaxWindowBits);
        checkBits(clientMaxWindowBits);
        if (maxInflatedMessage <= 0) {
            throw new IllegalArgumentException("maxInflatedMessage must be positive: " + maxInflatedMessage);
        }
    }

    PerMessageDeflateSettings withLevel(int level) {
        return new PerMessageDeflateSettings(level, clientNoContextTakeover, serverMaxWindowBits,
                clientMaxWindowBits, maxInflatedMessage);
    }

    PerMessageDeflateSettings withClientNoContextTakeover(boolean reset) {
        return new PerMessageDeflateSettings(level, reset, serverMaxWindowBits, clientMaxWindowBits,
                maxInflatedMessage);
    }

    PerMessageDeflateSettings withServerMaxWindowBits(int bits) {
        return new PerMessageDeflateSettings(level, clientNoContextTakeover, bits, clientMaxWindowBits,
                maxInflatedMessage);
    }

    PerMessageDeflateSettings withClientMaxWindowBits(int bits) {
        return new PerMessageDeflateSettings(level, clientNoContextTakeover, serverMaxWindowBits, bits,
                maxInflatedMessage);
    }

    PerMessageDeflateSettings withMaxInflatedMessage(int bytes) {
        return new PerMessageDeflateSettings(level, clientNoContextTakeover, serverMaxWindowBits,
                clientMaxWindowBits, bytes);
    }

    private static void checkBits(int bits) {
        if (bits < 8 || bits > 15) {
            throw new IllegalArgumentException("window bits " + bits + " (expected 8..15)");
        }
    }
}
