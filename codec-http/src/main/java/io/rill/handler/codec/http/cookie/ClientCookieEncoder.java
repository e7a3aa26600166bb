package io.rill.handler.codec.http.cookie;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Writes the {@code Cookie} request header (RFC 6265 §5.4): {@code name=value; name2=value2},
 * names and values only. {@link #STRICT} checks names and values against RFC 6265 §4.1.1 and
 * orders cookies with longer paths first, as §5.4 asks; {@link #LAX} keeps the given order and
 * only refuses what would break the header. Both throw {@link IllegalArgumentException} for
 * control characters (CR, LF...) and {@code ;}.
 */
public final class ClientCookieEncoder {

    /** Checks names and values against RFC 6265 §4.1.1 and sends longer paths first. */
    public static final ClientCookieEncoder STRICT = new ClientCookieEncoder(true);
    /** Keeps the given order and refuses only what would break the header. */
    public static final ClientCookieEncoder LAX = new ClientCookieEncoder(false);

    private static final Comparator<Cookie> LONGER_PATH_FIRST =
            Comparator.comparingInt((Cookie c) -> c.path() == null ? 0 : c.path().length()).reversed();

    private final boolean strict;

    private ClientCookieEncoder(boolean strict) {
        this.strict = strict;
    }

    /**
     * The {@code Cookie} header value for one cookie.
     *
     * @param name  the cookie's name
     * @param value the cookie's value
     * @return the header value
     * @throws IllegalArgumentException if the name or value is refused
     */
    public String encode(String name, String value) {
        return encode(List.of(new DefaultCookie(name, value)));
    }

    /**
     * The {@code Cookie} header value for {@code cookies}.
     *
     * @param cookies the cookies
     * @return the header value, or null if there are none
     * @throws IllegalArgumentException if a name or value is refused
     */
    public String encode(Cookie... cookies) {
        return encode(List.of(cookies));
    }

    /**
     * The header value for {@code cookies}, or null if there are none.
     *
     * @param cookies the cookies
     * @return the header value, or null
     * @throws IllegalArgumentException if a name or value is refused
     */
    public String encode(Collection<? extends Cookie> cookies) {
        if (cookies.isEmpty()) {
            return null;
        }
        List<Cookie> ordered = new ArrayList<>(cookies);
        if (strict) {
            ordered.sort(LONGER_PATH_FIRST); // stable: equal paths keep their order
        }
        StringBuilder sb = new StringBuilder();
        for (Cookie c : ordered) {
            CookieRules.check(CookieRules.invalidNameAt(c.name(), strict), "name", c.name());
            CookieRules.check(CookieRules.invalidValueAt(c.value(), strict), "value", c.value());
            if (sb.length() > 0) {
                sb.append("; ");
            }
            sb.append(c.name()).append('=');
            if (c.wrap()) {
                sb.append('"').append(c.value()).append('"');
            } else {
                sb.append(c.value());
            }
        }
        return sb.toString();
    }
}
