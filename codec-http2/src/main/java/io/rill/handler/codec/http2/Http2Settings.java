package io.rill.handler.codec.http2;

/**
 * The parameters of a {@code SETTINGS} frame (RFC 9113 §6.5.2, and RFC 8441's
 * {@code SETTINGS_ENABLE_CONNECT_PROTOCOL}): which ones are present, and their values. Values are
 * checked against the ranges the RFCs give when they are set, so a frame built from an
 * {@code Http2Settings} is always valid and a received one is rejected with the right error code.
 * Identifiers this class does not know are ignored, as §6.5.2 requires.
 */
public final class Http2Settings {

    /** {@code SETTINGS_HEADER_TABLE_SIZE}: the most the peer's HPACK encoder may use for its table. */
    public static final int HEADER_TABLE_SIZE = 0x1;
    /** {@code SETTINGS_ENABLE_PUSH}: 0 or 1; servers must not send 1. */
    public static final int ENABLE_PUSH = 0x2;
    /** {@code SETTINGS_MAX_CONCURRENT_STREAMS}: the most streams the sender lets the peer open. */
    public static final int MAX_CONCURRENT_STREAMS = 0x3;
    /** {@code SETTINGS_INITIAL_WINDOW_SIZE}: each new stream's flow-control window, at most 2^31-1. */
    public static final int INITIAL_WINDOW_SIZE = 0x4;
    /** {@code SETTINGS_MAX_FRAME_SIZE}: the largest frame payload the sender accepts, 2^14 to 2^24-1. */
    public static final int MAX_FRAME_SIZE = 0x5;
    /** {@code SETTINGS_MAX_HEADER_LIST_SIZE}: the largest field section the sender accepts (advisory). */
    public static final int MAX_HEADER_LIST_SIZE = 0x6;
    /** {@code SETTINGS_ENABLE_CONNECT_PROTOCOL} (RFC 8441): 1 allows extended CONNECT. */
    public static final int ENABLE_CONNECT_PROTOCOL = 0x8;

    /** The default of {@link #INITIAL_WINDOW_SIZE} and of the connection window: 65,535. */
    public static final int DEFAULT_WINDOW_SIZE = 65_535;
    /** The default and smallest {@link #MAX_FRAME_SIZE}: 16,384. */
    public static final int DEFAULT_MAX_FRAME_SIZE = 16_384;
    /** The largest {@link #MAX_FRAME_SIZE}: 2^24-1. */
    public static final int MAX_FRAME_SIZE_UPPER_BOUND = 16_777_215;
    /** The default of {@link #HEADER_TABLE_SIZE}: 4,096. */
    public static final int DEFAULT_HEADER_TABLE_SIZE = 4_096;
    /** The largest window and {@link #INITIAL_WINDOW_SIZE}: 2^31-1. */
    public static final int MAX_WINDOW_SIZE = Integer.MAX_VALUE;

    private static final int MAX_ID = ENABLE_CONNECT_PROTOCOL;
    private static final long MAX_UNSIGNED_INT = 0xFFFF_FFFFL;

    /** Values by identifier; only those whose bit is set in {@link #present} mean anything. */
    private final long[] values = new long[MAX_ID + 1];
    private int present;

    /** No parameter at all: an empty SETTINGS frame, which changes nothing. */
    public Http2Settings() {
    }

    /**
     * Sets a parameter after checking its range.
     *
     * @param id the identifier, e.g. {@link #MAX_FRAME_SIZE}; an unknown one is ignored
     * @param value the value, an unsigned 32-bit number
     * @return this
     * @throws Http2Exception a connection error with the code RFC 9113 §6.5.2 names when
     *         {@code value} is out of range ({@code FLOW_CONTROL_ERROR} for the window size,
     *         {@code PROTOCOL_ERROR} otherwise)
     */
    public Http2Settings put(int id, long value) throws Http2Exception {
        if (value < 0 || value > MAX_UNSIGNED_INT) {
            throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR,
                    "setting 0x" + Integer.toHexString(id) + " = " + value + " is not an unsigned 32-bit value");
        }
        switch (id) {
            case ENABLE_PUSH, ENABLE_CONNECT_PROTOCOL -> {
                if (value > 1) {
                    throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR,
                            name(id) + " must be 0 or 1, not " + value);
                }
            }
            case INITIAL_WINDOW_SIZE -> {
                if (value > MAX_WINDOW_SIZE) {
                    throw Http2Exception.connectionError(Http2Error.FLOW_CONTROL_ERROR,
                            "SETTINGS_INITIAL_WINDOW_SIZE " + value + " exceeds 2^31-1");
                }
            }
            case MAX_FRAME_SIZE -> {
                if (value < DEFAULT_MAX_FRAME_SIZE || value > MAX_FRAME_SIZE_UPPER_BOUND) {
                    throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR,
                            "SETTINGS_MAX_FRAME_SIZE " + value + " is outside 16384..16777215");
                }
            }
            case HEADER_TABLE_SIZE, MAX_CONCURRENT_STREAMS, MAX_HEADER_LIST_SIZE -> {
                // Any 32-bit value.
            }
            default -> {
                return this; // unknown or unsupported: ignored (RFC 9113 §6.5.2)
            }
        }
        values[id] = value;
        present |= 1 << id;
        return this;
    }

    /**
     * Whether the parameter is present.
     *
     * @param id the identifier
     * @return {@code true} if it was put
     */
    public boolean has(int id) {
        return id > 0 && id <= MAX_ID && (present & (1 << id)) != 0;
    }

    /**
     * A parameter's value.
     *
     * @param id the identifier
     * @param otherwise what to return when the parameter is absent
     * @return the value, or {@code otherwise}
     */
    public long get(int id, long otherwise) {
        return has(id) ? values[id] : otherwise;
    }

    /**
     * The number of parameters present: a SETTINGS frame carries six bytes for each.
     *
     * @return how many parameters are present
     */
    public int size() {
        return Integer.bitCount(present);
    }

    /**
     * Calls {@code action} with each present parameter in identifier order.
     *
     * @param action called with the identifier and the value
     */
    public void forEach(Parameter action) {
        for (int id = 1; id <= MAX_ID; id++) {
            if (has(id)) {
                action.accept(id, values[id]);
            }
        }
    }

    /** Receives one parameter of {@link #forEach}. */
    @FunctionalInterface
    public interface Parameter {
        /**
         * Receives a parameter.
         *
         * @param id the identifier
         * @param value the value
         */
        void accept(int id, long value);
    }

    /**
     * The RFC's name of a parameter, for messages.
     *
     * @param id the identifier
     * @return e.g. {@code SETTINGS_MAX_FRAME_SIZE}, or the identifier in hex
     */
    public static String name(int id) {
        return switch (id) {
            case HEADER_TABLE_SIZE -> "SETTINGS_HEADER_TABLE_SIZE";
            case ENABLE_PUSH -> "SETTINGS_ENABLE_PUSH";
            case MAX_CONCURRENT_STREAMS -> "SETTINGS_MAX_CONCURRENT_STREAMS";
            case INITIAL_WINDOW_SIZE -> "SETTINGS_INITIAL_WINDOW_SIZE";
            case MAX_FRAME_SIZE -> "SETTINGS_MAX_FRAME_SIZE";
            case MAX_HEADER_LIST_SIZE -> "SETTINGS_MAX_HEADER_LIST_SIZE";
            case ENABLE_CONNECT_PROTOCOL -> "SETTINGS_ENABLE_CONNECT_PROTOCOL";
            default -> "0x" + Integer.toHexString(id);
        };
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Http2Settings[");
        forEach((id, value) -> sb.append(sb.length() > 14 ? ", " : "").append(name(id)).append('=').append(value));
        return sb.append(']').toString();
    }
}
