package io.rill.handler.codec.http.websocketx.extensions;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One element of a {@code Sec-WebSocket-Extensions} field: an extension name and its parameters
 * (RFC 6455 §9.1), e.g. {@code permessage-deflate; client_max_window_bits="10"}.
 *
 * <pre>
 *  extension  = token *( OWS ";" OWS param )
 *  param      = token [ OWS "=" OWS ( token / quoted-string ) ]
 * </pre>
 *
 * <p>Names are compared without regard to case, so both the extension name and the parameter
 * names are kept in lower case. A quoted value is unquoted ({@code \} escapes the next character);
 * RFC 6455 §9.1 requires it to be a token once unquoted, and it is refused otherwise. A parameter
 * without a value maps to {@code null}.
 *
 * @param name the extension's name, lower case
 * @param params the parameters in the order they came, names in lower case, values unquoted or null
 */
public record ExtensionElement(String name, Map<String, String> params) {

    /**
     * Keeps an unmodifiable copy of the parameters, in their order.
     *
     * @param name the extension's name
     * @param params the parameters
     */
    public ExtensionElement {
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
    }

    /**
     * Parses one element, as split from the field at top-level commas.
     *
     * @param element the element's text
     * @return the element, or null if it is malformed or names a parameter twice: the offer or
     *         answer it belongs to is then declined, never answered with an exception
     */
    public static ExtensionElement parse(String element) {
        return new Parser(element).element();
    }

    /** A hand-written parser over the element's characters; one method per grammar rule. */
    private static final class Parser {
        private final String s;
        private int at;

        Parser(String s) {
            this.s = s;
        }

        ExtensionElement element() {
            skipSpace();
            String name = token();
            if (name == null) {
                return null;
            }
            Map<String, String> params = new LinkedHashMap<>();
            skipSpace();
            while (at < s.length()) {
                if (s.charAt(at) != ';') {
                    return null;
                }
                at++;
                skipSpace();
                String param = token();
                if (param == null) {
                    return null;
                }
                String value = null;
                skipSpace();
                if (at < s.length() && s.charAt(at) == '=') {
                    at++;
                    skipSpace();
                    value = value();
                    if (value == null) {
                        return null;
                    }
                    skipSpace();
                }
                if (params.containsKey(param)) {
                    return null; // RFC 7692 §7: a repeated parameter declines the offer
                }
                params.put(param, value);
            }
            return new ExtensionElement(name, params);
        }

        /** A token (RFC 9110 §5.6.2), lower-cased; null if none starts here. */
        private String token() {
            int start = at;
            while (at < s.length() && isTokenChar(s.charAt(at))) {
                at++;
            }
            return at == start ? null : s.substring(start, at).toLowerCase(Locale.ROOT);
        }

        /** A token or a quoted string whose content is a token (RFC 6455 §9.1); null otherwise. */
        private String value() {
            if (at >= s.length() || s.charAt(at) != '"') {
                int start = at;
                while (at < s.length() && isTokenChar(s.charAt(at))) {
                    at++;
                }
                return at == start ? null : s.substring(start, at);
            }
            StringBuilder out = new StringBuilder();
            for (at++; at < s.length(); at++) {
                char c = s.charAt(at);
                if (c == '"') {
                    at++;
                    return out.length() > 0 && isToken(out) ? out.toString() : null;
                }
                if (c == '\\') {
                    if (++at >= s.length()) {
                        return null;
                    }
                    c = s.charAt(at);
                }
                out.append(c);
            }
            return null; // no closing quote
        }

        private void skipSpace() {
            while (at < s.length() && (s.charAt(at) == ' ' || s.charAt(at) == '\t')) {
                at++;
            }
        }
    }

    private static boolean isToken(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            if (!isTokenChar(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** tchar: visible ASCII except the separators of RFC 9110 §5.6.2. */
    static boolean isTokenChar(char c) {
        return c > 0x20 && c < 0x7F && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
    }

    /** @return the element as it goes on the wire: values that are tokens are written bare */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(name);
        for (Map.Entry<String, String> p : params.entrySet()) {
            out.append("; ").append(p.getKey());
            if (p.getValue() != null) {
                out.append('=').append(p.getValue());
            }
        }
        return out.toString();
    }
}
