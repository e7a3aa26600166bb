package io.rill.handler.codec.http.websocketx.extensions;

import java.util.Map;

/**
 * The four parameters of permessage-deflate (RFC 7692 §7.1), as offered or as agreed. Window bits
 * are 8..15, 15 when the parameter is absent; {@code clientMaxWindowBits} is 0 for the valueless
 * form a client may offer ("I can limit my window, tell me to what").
 *
 * @param serverNoContextTakeover the server starts each message with an empty history
 * @param clientNoContextTakeover the client starts each message with an empty history
 * @param serverMaxWindowBits the server's LZ77 window, log2 of bytes; absent: 15
 * @param serverBitsPresent whether {@code server_max_window_bits} was named
 * @param clientMaxWindowBits the client's LZ77 window; absent: 15; named without a value: 0
 * @param clientBitsPresent whether {@code client_max_window_bits} was named
 */
record PerMessageDeflateParams(boolean serverNoContextTakeover, boolean clientNoContextTakeover,
        int serverMaxWindowBits, boolean serverBitsPresent, int clientMaxWindowBits, boolean clientBitsPresent) {

    /** The extension's registered name. */
    static final String NAME = "permessage-deflate";

    static final String SERVER_NO_CONTEXT_TAKEOVER = "server_no_context_takeover";
    static final String CLIENT_NO_CONTEXT_TAKEOVER = "client_no_context_takeover";
    static final String SERVER_MAX_WINDOW_BITS = "server_max_window_bits";
    static final String CLIENT_MAX_WINDOW_BITS = "client_max_window_bits";

    /**
     * Reads the parameters of a permessage-deflate element. Unknown parameters, values on the
     * no-context-takeover parameters, a missing {@code server_max_window_bits} value, and window
     * bits that are not a plain decimal 8..15 (no sign, no leading zero) all make it unusable.
     *
     * @param element a parsed element
     * @return the parameters, or null if the element is not a valid permessage-deflate element
     */
    static PerMessageDeflateParams of(ExtensionElement element) {
        if (element == null || !NAME.equals(element.name())) {
            return null;
        }
        boolean serverNoContext = false;
        boolean clientNoContext = false;
        int serverBits = 15;
        int clientBits = 15;
        boolean serverBitsPresent = false;
        boolean clientBitsPresent = false;
        for (Map.Entry<String, String> p : element.params().entrySet()) {
            String value = p.getValue();
            switch (p.getKey()) {
                case SERVER_NO_CONTEXT_TAKEOVER -> {
                    if (value != null) {
                        return null;
                    }
                    serverNoContext = true;
                }
                case CLIENT_NO_CONTEXT_TAKEOVER -> {
                    if (value != null) {
                        return null;
                    }
                    clientNoContext = true;
                }
                case SERVER_MAX_WINDOW_BITS -> {
                    serverBits = windowBits(value);
                    if (serverBits == 0) {
                        return null; // §7.1.2.1: this one always has a value
                    }
                    serverBitsPresent = true;
                }
                case CLIENT_MAX_WINDOW_BITS -> {
                    clientBits = value == null ? 0 : windowBits(value);
                    if (value != null && clientBits == 0) {
                        return null;
                    }
                    clientBitsPresent = true;
                }
                default -> {
                    return null; // §5.1: an unknown parameter declines the offer
                }
            }
        }
        return new PerMessageDeflateParams(serverNoContext, clientNoContext, serverBits, serverBitsPresent,
                clientBits, clientBitsPresent);
    }

    /** 8..15 written as a plain decimal; 0 for anything else (RFC 7692 §7.1.2.1). */
    private static int windowBits(String value) {
        if (value == null || value.isEmpty() || value.length() > 2 || value.charAt(0) == '0') {
            return 0;
        }
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) < '0' || value.charAt(i) > '9') {
                return 0;
            }
        }
        int bits = Integer.parseInt(value);
        return bits >= 8 && bits <= 15 ? bits : 0;
    }

    /** @return the element that states these parameters, in a fixed order */
    String toElement() {
        StringBuilder out = new StringBuilder(NAME);
        if (serverNoContextTakeover) {
            out.append("; ").append(SERVER_NO_CONTEXT_TAKEOVER);
        }
        if (clientNoContextTakeover) {
            out.append("; ").append(CLIENT_NO_CONTEXT_TAKEOVER);
        }
        if (serverBitsPresent) {
            out.append("; ").append(SERVER_MAX_WINDOW_BITS).append('=').append(serverMaxWindowBits);
        }
        if (clientBitsPresent) {
            out.append("; ").append(CLIENT_MAX_WINDOW_BITS);
            if (clientMaxWindowBits != 0) {
                out.append('=').append(clientMaxWindowBits);
            }
        }
        return out.toString();
    }
}
