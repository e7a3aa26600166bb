package io.rill.handler.codec.http.cookie;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.rill.handler.codec.http.DateFormatter;

/**
 * Writes {@code Set-Cookie} header values (RFC 6265 §4.1), one per cookie:
 * {@code name=value; Max-Age=3600; Expires=...; Path=/; Domain=example.com; Secure; HttpOnly; SameSite=Lax}.
 *
 * <p>{@link #STRICT} refuses names that are not tokens and values outside RFC 6265's
 * cookie-octets; {@link #LAX} lets through anything a browser will store. Both refuse control
 * characters (CR and LF above all: they would split the response) and {@code ;} in names, values,
 * paths and domains with an {@link IllegalArgumentException}, so no cookie can inject an
 * attribute or a header. {@code Expires} is written beside {@code Max-Age} for old clients.
 */
public final class ServerCookieEncoder {

    /** Refuses names that are not tokens and values outside RFC 6265's cookie-octets. */
    public static final ServerCookieEncoder STRICT = new ServerCookieEncoder(true);
    /** Lets through any name and value a browser will store, but never control characters or {@code ;}. */
    public static final ServerCookieEncoder LAX = new ServerCookieEncoder(false);

    private final boolean strict;

    private ServerCookieEncoder(boolean strict) {
        this.strict = strict;
    }

    /**
     * A session cookie with just a name and value.
     *
     * @param name  the cookie's name
     * @param value the cookie's value
     * @return the {@code Set-Cookie} value
     * @throws IllegalArgumentException if the name or value is refused
     */
    public String encode(String name, String value) {
        return encode(new DefaultCookie(name, value));
    }

    /**
     * The {@code Set-Cookie} value for {@code cookie}, with its attributes.
     *
     * @param cookie the cookie
     * @return the header value
     * @throws IllegalArgumentException if the name, value, path or domain is refused
     */
    public String encode(Cookie cookie) {
        String name = cookie.name();
        String value = cookie.value();
        CookieRules.check(CookieRules.invalidNameAt(name, strict), "name", name);
        CookieRules.check(CookieRules.invalidValueAt(value, strict), "value", value);
        StringBuilder sb = new StringBuilder(name.length() + value.length() + 64);
        sb.append(name).append('=');
        if (cookie.wrap()) {
            sb.append('"').append(value).append('"');
        } else {
            sb.append(value);
        }
        if (cookie.maxAge() != Cookie.UNDEFINED_MAX_AGE) {
            sb.append("; Max-Age=").append(Math.max(0, cookie.maxAge()));
            long seconds = Math.max(0, cookie.maxAge());
            long expires = seconds > Long.MAX_VALUE / 2000 ? Long.MAX_VALUE / 2 : System.currentTimeMillis() + seconds * 1000;
            sb.append("; Expires=").append(DateFormatter.format(expires));
        }
        appendAttribute(sb, "Path", cookie.path());
        appendAttribute(sb, "Domain", cookie.domain());
        if (cookie.isSecure()) {
            sb.append("; Secure");
        }
        if (cookie.isHttpOnly()) {
            sb.append("; HttpOnly");
        }
        if (cookie.sameSite() != null) {
            sb.append("; SameSite=").append(cookie.sameSite().name());
        }
        return sb.toString();
    }

    private static void appendAttribute(StringBuilder sb, String attribute, String value) {
        if (value != null) {
            CookieRules.check(CookieRules.invalidAttributeAt(value), attribute, value);
            sb.append("; ").append(attribute).append('=').append(value);
        }
    }

    /**
     * One header value per cookie, in order.
     *
     * @param cookies the cookies
     * @return a new list of header values
     * @throws IllegalArgumentException if a cookie is refused
     */
    public List<String> encode(Collection<? extends Cookie> cookies) {
        List<String> out = new ArrayList<>(cookies.size());
        for (Cookie c : cookies) {
            out.add(encode(c));
        }
        return out;
    }
}
