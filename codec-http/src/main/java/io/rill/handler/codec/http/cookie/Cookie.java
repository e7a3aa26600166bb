package io.rill.handler.codec.http.cookie;

/**
 * An HTTP cookie (RFC 6265): a name and value, and the attributes a server sets with
 * {@code Set-Cookie}. A client sends back only name and value ({@code Cookie}). Cookies compare
 * by name, then path, then domain, which is what identifies one in a browser's store.
 */
public interface Cookie extends Comparable<Cookie> {

    /** {@link #maxAge()} when no {@code Max-Age} was given: the cookie lasts for the session. */
    long UNDEFINED_MAX_AGE = Long.MIN_VALUE;

    /** The {@code SameSite} attribute (RFC 6265bis §4.1.2.7). */
    enum SameSite { Strict, Lax, None }

    String name();

    String value();

    void setValue(String value);

    /** Whether the value is sent in double quotes. */
    boolean wrap();

    void setWrap(boolean wrap);

    String domain();

    void setDomain(String domain);

    String path();

    void setPath(String path);

    /** Seconds until the cookie expires; 0 or less deletes it; {@link #UNDEFINED_MAX_AGE} if unset. */
    long maxAge();

    void setMaxAge(long maxAge);

    boolean isSecure();

    void setSecure(boolean secure);

    boolean isHttpOnly();

    void setHttpOnly(boolean httpOnly);

    /** The SameSite attribute, or null if unset. */
    SameSite sameSite();

    void setSameSite(SameSite sameSite);
}
