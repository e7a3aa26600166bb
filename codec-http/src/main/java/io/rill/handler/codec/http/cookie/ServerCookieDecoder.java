package io.rill.handler.codec.http.cookie;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the {@code Cookie} request header (RFC 6265 §4.2.1): {@code name=value; name2="value2"}.
 *
 * <p>{@link #STRICT} skips a cookie whose name is not a token or whose value has characters
 * outside the cookie-octets; {@link #LAX} keeps anything but control characters. Both skip pairs
 * without {@code =}, names starting with {@code $} (RFC 2965 attributes, not cookies), and stop
 * after {@link #MAX_COOKIES} cookies. Values lose one pair of surrounding quotes (and remember
 * it: {@link Cookie#wrap()}). Malformed pairs are skipped, never thrown: a browser sends what
 * other sites on its domain set, and one bad cookie must not cost the request.
 */
public final class ServerCookieDecoder {

    /** Skips cookies whose name is not a token or whose value strays outside the cookie-octets. */
    public static final ServerCookieDecoder STRICT = new ServerCookieDecoder(true);
    /** Keeps any cookie without control characters. */
    public static final ServerCookieDecoder LAX = new ServerCookieDecoder(false);
    /** Most cookies read from one header; the rest are ignored. */
    public static final int MAX_COOKIES = 256;

    private final boolean strict;

    private ServerCookieDecoder(boolean strict) {
        this.strict = strict;
    }

    /**
     * The cookies of {@code header}, one per name: the first of a name wins, as user agents send
     * the most specific (longest path) first (RFC 6265 §5.4).
     *
     * @param header the {@code Cookie} header value
     * @return a new set of cookies, in header order
     */
    public Set<Cookie> decode(String header) {
        Map<String, Cookie> byName = new LinkedHashMap<>();
        for (Cookie c : decodeAll(header)) {
            byName.putIfAbsent(c.name(), c);
        }
        return Collections.unmodifiableSet(new LinkedHashSet<>(byName.values()));
    }

    /**
     * Every cookie of {@code header} in order, repeated names included.
     *
     * @param header the {@code Cookie} header value
     * @return a new list of cookies
     */
    public List<Cookie> decodeAll(String header) {
        List<Cookie> out = new ArrayList<>();
        int n = header.length();
        for (int start = 0; start < n && out.size() < MAX_COOKIES; ) {
            int semi = header.indexOf(';', start);
            int end = semi < 0 ? n : semi;
            Cookie c = pair(CookieRules.trimOws(header.substring(start, end)));
            if (c != null) {
                out.add(c);
            }
            start = end + 1;
        }
        return out;
    }

    private Cookie pair(String pair) {
        DefaultCookie cookie = CookieRules.parsePair(pair, strict);
        return cookie == null || cookie.name().charAt(0) == '$' ? null : cookie;
    }
}
