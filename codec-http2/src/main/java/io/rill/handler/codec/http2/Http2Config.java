package io.rill.handler.codec.http2;

import io.rill.handler.codec.http.HttpServerTimeouts;

/**
 * What an {@link Http2FrameCodec} advertises and enforces; made by {@link Http2FrameCodec.Builder}.
 *
 * @param server whether this is the server side of the connection
 * @param maxConcurrentStreams SETTINGS_MAX_CONCURRENT_STREAMS we advertise and enforce
 * @param initialWindowSize SETTINGS_INITIAL_WINDOW_SIZE we advertise: each stream's receive window
 * @param connectionWindowSize the connection receive window (raised from 65,535 by a WINDOW_UPDATE)
 * @param maxHeaderListSize SETTINGS_MAX_HEADER_LIST_SIZE we advertise and enforce while decoding
 * @param headerTableSize SETTINGS_HEADER_TABLE_SIZE we advertise: the peer's HPACK table size
 * @param settingsAckTimeoutMillis how long the peer has to acknowledge our SETTINGS
 * @param enableConnectProtocol whether a server advertises SETTINGS_ENABLE_CONNECT_PROTOCOL = 1 and so
 *        accepts extended CONNECT (RFC 8441 §3); off by default, so a plain server's SETTINGS are unchanged
 * @param timeouts the idle, header and body limits a server puts on its client ({@link Http2Timeouts})
 * @param maxHeldBytes the content one connection may hold, received and queued ({@link Http2MemoryBudget})
 * @param serverBudget what a server's connections hold together; null for none (a client, or a test)
 */
record Http2Config(boolean server, int maxConcurrentStreams, int initialWindowSize, int connectionWindowSize,
                   int maxHeaderListSize, int headerTableSize, long settingsAckTimeoutMillis,
                   boolean enableConnectProtocol, HttpServerTimeouts timeouts, long maxHeldBytes,
                   Http2ServerBudget serverBudget) {

    /** The default of {@link Http2FrameCodec.Builder#maxHeldBytes}: 4 MiB, four connection windows. */
    static final long DEFAULT_MAX_HELD_BYTES = 4L << 20;

    /** A configuration with the default connection budget and no server budget. */
    Http2Config(boolean server, int maxConcurrentStreams, int initialWindowSize, int connectionWindowSize,
                int maxHeaderListSize, int headerTableSize, long settingsAckTimeoutMillis,
                boolean enableConnectProtocol, HttpServerTimeouts timeouts) {
        this(server, maxConcurrentStreams, initialWindowSize, connectionWindowSize, maxHeaderListSize,
                headerTableSize, settingsAckTimeoutMillis, enableConnectProtocol, timeouts,
                Math.max(DEFAULT_MAX_HELD_BYTES, connectionWindowSize), null);
    }

    /** A configuration without extended CONNECT, without timeouts and without a server budget. */
    Http2Config(boolean server, int maxConcurrentStreams, int initialWindowSize, int connectionWindowSize,
                int maxHeaderListSize, int headerTableSize, long settingsAckTimeoutMillis) {
        this(server, maxConcurrentStreams, initialWindowSize, connectionWindowSize, maxHeaderListSize,
                headerTableSize, settingsAckTimeoutMillis, false, HttpServerTimeouts.NONE);
    }

    /** The SETTINGS frame we send first. */
    Http2Settings localSettings() {
        try {
            Http2Settings settings = new Http2Settings()
                    .put(Http2Settings.MAX_CONCURRENT_STREAMS, maxConcurrentStreams)
                    .put(Http2Settings.INITIAL_WINDOW_SIZE, initialWindowSize)
                    .put(Http2Settings.MAX_HEADER_LIST_SIZE, maxHeaderListSize);
            if (headerTableSize != Http2Settings.DEFAULT_HEADER_TABLE_SIZE) {
                settings.put(Http2Settings.HEADER_TABLE_SIZE, headerTableSize);
            }
            if (!server) {
                settings.put(Http2Settings.ENABLE_PUSH, 0);
            }
            if (server && enableConnectProtocol) {
                settings.put(Http2Settings.ENABLE_CONNECT_PROTOCOL, 1);
            }
            return settings;
        } catch (Http2Exception e) {
            throw new IllegalStateException("the builder checked these ranges", e);
        }
    }
}
