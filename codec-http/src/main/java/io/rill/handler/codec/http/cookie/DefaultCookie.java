package io.rill.handler.codec.http.cookie;

import java.util.Objects;

/**
 * A mutable {@link Cookie}. Nothing is validated here: the encoders check names, values and
 * attributes when a cookie is sent, each to its own rules ({@code STRICT} or {@code LAX}).
 */
public class DefaultCookie implements Cookie {

    private final String name;
    private String value;
    private boolean wrap;
    private String domain;
    private String path;
    private long maxAge = UNDEFINED_MAX_AGE;
    private boolean secure;
    private boolean httpOnly;
    private SameSite sameSite;

    /**
     * A session cookie with a name and value and no attributes.
     *
     * @param name  the name; not empty
     * @param value the value
     * @throws IllegalArgumentException if {@code name} is null or empty
     */
    public DefaultCookie(String name, String value) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("cookie name must not be null or empty");
        }
        this.name = name;
        setValue(value);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String value() {
        return value;
    }

    @Override
    public void setValue(String value) {
        this.value = Objects.requireNonNull(value, "value");
    }

    @Override
    public boolean wrap() {
        return wrap;
    }

    @Override
    public void setWrap(boolean wrap) {
        this.wrap = wrap;
    }

    @Override
    public String domain() {
        return domain;
    }

    @Override
    public void setDomain(String domain) {
        this.domain = domain;
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public void setPath(String path) {
        this.path = path;
    }

    @Override
    public long maxAge() {
        return maxAge;
    }

    @Override
    public void setMaxAge(long maxAge) {
        this.maxAge = maxAge;
    }

    @Override
    public boolean isSecure() {
        return secure;
    }

    @Override
    public void setSecure(boolean secure) {
        this.secure = secure;
    }

    @Override
    public boolean isHttpOnly() {
        return httpOnly;
    }

    @Override
    public void setHttpOnly(boolean httpOnly) {
        this.httpOnly = httpOnly;
    }

    @Override
    public SameSite sameSite() {
        return sameSite;
    }

    @Override
    public void setSameSite(SameSite sameSite) {
        this.sameSite = sameSite;
    }

    @Override
    public int compareTo(Cookie o) {
        int c = name.compareTo(o.name());
        if (c == 0) {
            c = compareNullable(path, o.path());
        }
        if (c == 0) {
            c = compareNullable(domain == null ? null : domain.toLowerCase(java.util.Locale.ROOT),
                    o.domain() == null ? null : o.domain().toLowerCase(java.util.Locale.ROOT));
        }
        return c;
    }

    private static int compareNullable(String a, String b) {
        return a == null ? (b == null ? 0 : -1) : b == null ? 1 : a.compareTo(b);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Cookie c && compareTo(c) == 0;
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    /** For logs: name, value and attributes, control characters shown escaped; never throws. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(CookieRules.printable(name)).append('=').append(CookieRules.printable(value));
        if (maxAge != UNDEFINED_MAX_AGE) {
            sb.append(", maxAge=").append(maxAge);
        }
        if (path != null) {
            sb.append(", path=").append(CookieRules.printable(path));
        }
        if (domain != null) {
            sb.append(", domain=").append(CookieRules.printable(domain));
        }
        if (secure) {
            sb.append(", secure");
        }
        if (httpOnly) {
            sb.append(", httpOnly");
        }
        if (sameSite != null) {
            sb.append(", sameSite=").append(sameSite);
        }
        return sb.toString();
    }
}
