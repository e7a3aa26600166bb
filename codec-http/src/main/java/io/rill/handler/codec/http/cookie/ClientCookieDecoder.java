package io.rill.handler.codec.http.cookie;

import java.util.Locale;

import io.rill.handler.codec.http.DateFormatter;

/**
 * Reads one {@code Set-Cookie} response header (RFC 6265 §5.2) into a {@link Cookie} with its
 * attributes: {@code Expires}, {@code Max-Age} (which wins over Expires), {@code Domain} (a leading
 * dot dropped), {@code Path}, {@code Secure}, {@code HttpOnly} and {@code SameSite}. Unknown
 * attributes are ignored.
 *
 * <p>{@link #STRICT} returns null for a cookie whose name is not a token or whose value has
 * characters outside the cookie-octets; {@link #LAX} only for one without a name or with control
 * characters. A malformed attribute is ignored in both, as §5.2 says. In both, a header with a
 * control character anywhere (HTAB aside), attributes included, sets no cookie: RFC 6265bis §5.6
 * ignores such a string whole, and a cookie kept with a NUL in its path could be neither matched
 * sensibly nor written on by {@link ServerCookieEncoder} (docs/security-cases.md, case H1-21).
 */
public final class ClientCookieDecoder {

    /** Refuses cookies whose name is not a token or whose value strays outside the cookie-octets. */
    public static final ClientCookieDecoder STRICT = new ClientCookieDecoder(true);
    /** Refuses only cookies without a name or with control characters. */
    public static final ClientCookieDecoder LAX = new ClientCookieDecoder(false);

    private final boolean strict;

    private ClientCookieDecoder(boolean strict) {
        this.strict = strict;
    }

    /**
     * The cookie {@code header} sets, or null if it sets none that this mode accepts.
     *
     * @param header the {@code Set-Cookie} header value
     * @return the cookie, or null
     */
    public Cookie decode(String header) {
        for (int i = 0; i < header.length(); i++) {
            char c = header.charAt(i);
            if ((c < ' ' && c != '\t') || c == 0x7f) {
                return null;
            }
        }
        int semi = header.indexOf(';');
        String pair = semi < 0 ? header : header.substring(0, semi);
        DefaultCookie cookie = CookieRules.parsePair(pair, strict);
        if (cookie == null) {
            return null;
        }
        Long expires = null;
        boolean maxAgeSeen = false;
        for (int start = semi + 1; semi >= 0 && start <= header.length(); ) {
            int next = header.indexOf(';', start);
            int end = next < 0 ? header.length() : next;
            String attr = CookieRules.trimOws(header.substring(start, end));
            int aeq = attr.indexOf('=');
            String key = CookieRules.trimOws(aeq < 0 ? attr : attr.substring(0, aeq)).toLowerCase(Locale.ROOT);
            String val = aeq < 0 ? "" : CookieRules.trimOws(attr.substring(aeq + 1));
            switch (key) {
                case "expires" -> expires = DateFormatter.parse(val);
                case "max-age" -> maxAgeSeen |= maxAge(cookie, val);
                case "domain" -> domain(cookie, val);
                case "path" -> cookie.setPath(val.startsWith("/") ? val : null); // §5.2.4: else the default path
                case "secure" -> cookie.setSecure(true);
                case "httponly" -> cookie.setHttpOnly(true);
                case "samesite" -> cookie.setSameSite(sameSite(val));
                default -> { }
            }
            if (next < 0) {
                break;
            }
            start = next + 1;
        }
        if (!maxAgeSeen && expires != null) {
            long seconds = Math.floorDiv(expires - System.currentTimeMillis(), 1000);
            cookie.setMaxAge(Math.max(0, seconds));
        }
        return cookie;
    }

    /**
     * §5.2.3: a leading dot is dropped. An empty value is ignored (as §5.2.3 advises), and so is
     * one with whitespace left inside ({@code Domain=. x}) or a second leading dot
     * ({@code Domain=..x}): no host matches it, and the encoder could not write it back as it was
     * read (a decoder would drop the dot again).
     */
    private static void domain(Cookie cookie, String val) {
        String domain = val.startsWith(".") ? val.substring(1) : val;
        if (!domain.isEmpty() && domain.charAt(0) != '.' && domain.indexOf(' ') < 0 && domain.indexOf('\t') < 0) {
            cookie.setDomain(domain);
        }
    }

    /** §5.2.2: an optional '-' then digits; anything else is ignored. */
    private static boolean maxAge(Cookie cookie, String val) {
        if (!val.matches("-?\\d{1,18}")) {
            return false;
        }
        cookie.setMaxAge(Math.max(0, Long.parseLong(val)));
        return true;
    }

    private static Cookie.SameSite sameSite(String val) {
        for (Cookie.SameSite s : Cookie.SameSite.values()) {
            if (s.name().equalsIgnoreCase(val)) {
                return s;
            }
        }
        return null;
    }
}
