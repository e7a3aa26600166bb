package io.rill.handler.codec.socks;

/** The command of a SOCKS4 request (the CD field). */
public enum Socks4CommandType {
    /** Open a TCP connection to the destination. */
    CONNECT(1),
    /** Listen for one connection from the destination. */
    BIND(2);

    private final int code;

    Socks4CommandType(int code) {
        this.code = code;
    }

    /** {@return the byte on the wire} */
    public int code() {
        return code;
    }

    static Socks4CommandType of(int code) {
        for (Socks4CommandType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        throw new SocksProtocolException("SOCKS4 request: unknown command 0x" + Integer.toHexString(code));
    }
}
