package io.rill.handler.codec.socks;

/** The status of a SOCKS4 reply (the CD field): granted, or one of three refusals. */
public enum Socks4ReplyStatus {
    /** Request granted (90). */
    GRANTED(90, "request granted"),
    /** Request rejected or failed (91). */
    REJECTED(91, "request rejected or failed"),
    /** The server could not reach the client's identd (92). */
    IDENTD_UNREACHABLE(92, "identd unreachable"),
    /** The client's identd reported a different user id (93). */
    IDENTD_MISMATCH(93, "identd user id mismatch");

    private final int code;
    private final String description;

    Socks4ReplyStatus(int code, String description) {
        this.code = code;
        this.description = description;
    }

    /** {@return the byte on the wire} */
    public int code() {
        return code;
    }

    /** {@return what the status means, in words, for error messages} */
    public String description() {
        return description;
    }

    static Socks4ReplyStatus of(int code) {
        for (Socks4ReplyStatus status : values()) {
            if (status.code == code) {
                return status;
            }
        }
        throw new SocksProtocolException("SOCKS4 reply: unknown status " + code + " (expected: 90..93)");
    }
}
