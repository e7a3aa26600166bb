package io.rill.handler.codec.http.websocketx;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import io.rill.handler.codec.http.HttpHeaders;

/** The opening handshake's field arithmetic (RFC 6455 §4.1, §4.2.2), shared by both sides. */
final class HandshakeFields {

    /** The GUID a server appends to the client's key before hashing (RFC 6455 §1.3). */
    static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    private HandshakeFields() {
    }

    /** {@code Sec-WebSocket-Accept} for {@code key}: base64 of the SHA-1 of the key and the GUID. */
    static String acceptFor(String key) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            byte[] digest = sha1.digest((key + GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-1", e); // required by the Java SE spec
        }
    }

    /** A valid key is base64 of exactly 16 bytes: 24 characters ending in {@code ==} (§4.1 item 7). */
    static boolean isValidKey(String key) {
        if (key == null || key.length() != 24) {
            return false;
        }
        try {
            return Base64.getDecoder().decode(key).length == 16;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** A fresh random key. */
    static String newKey() {
        byte[] nonce = new byte[16];
        new java.security.SecureRandom().nextBytes(nonce);
        return Base64.getEncoder().encodeToString(nonce);
    }

    /**
     * The comma-separated elements of every field named {@code name}, trimmed, empty ones dropped
     * (RFC 9110 §5.6.1). A comma inside a quoted string (an extension parameter's value, RFC 6455
     * §9.1) does not split; a quote left open runs to the end of the field value.
     */
    static List<String> elements(HttpHeaders headers, CharSequence name) {
        List<String> out = new ArrayList<>();
        for (String value : headers.getAll(name)) {
            int start = 0;
            boolean quoted = false;
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (quoted && c == '\\') {
                    i++; // the escaped character cannot end the quote
                } else if (c == '"') {
                    quoted = !quoted;
                } else if (c == ',' && !quoted) {
                    addTrimmed(out, value.substring(start, i));
                    start = i + 1;
                }
            }
            addTrimmed(out, value.substring(start));
        }
        return out;
    }

    private static void addTrimmed(List<String> out, String element) {
        String trimmed = element.trim();
        if (!trimmed.isEmpty()) {
            out.add(trimmed);
        }
    }
}
