package io.rill.channel;

import java.net.BindException;
import java.net.SocketAddress;

/**
 * Makes a failed bind name its address. The JDK's {@link BindException} says "Address already in
 * use" but not which address, and an operator running several servers needs to know which one.
 */
final class BindFailure {

    private BindFailure() {
    }

    /** {@code t} with {@code address} added to its message if it is a BindException that lacks it; the type is kept. */
    static Throwable namingAddress(Throwable t, SocketAddress address) {
        if (!(t instanceof BindException) || address == null) {
            return t;
        }
        String text = String.valueOf(t.getMessage());
        String where = address.toString();
        if (text.contains(where)) {
            return t;
        }
        BindException named = new BindException(text + ": " + where);
        named.initCause(t);
        return named;
    }
}
