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
    enum SameSite {
        /** Sent only with requests from the cookie's own site. */
        Strict,
        /** Also sent with top-level navigations from other sites. */
        Lax,
        /** Sent with cross-site requests too; browsers require {@code Secure} with it. */
        None
    }

    /**
     * The cookie's name.
     *
     * @return the name
     */
    String name();

    /**
     * The cookie's value, without the double quotes it may have been sent in.
     *
     * @return the value
     */
    String value();

    /**
     * Replaces the value.
     *
     * @param value the new value; not null
     */
    void setValue(String value);

    /**
     * Whether the value is sent in double quotes.
     *
     * @return true if the value is quoted
     */
    boolean wrap();

    /**
     * Chooses whether the value is sent in double quotes.
     *
     * @param wrap true to quote the value
     */
    void setWrap(boolean wrap);

    /**
     * The {@code Domain} attribute: the hosts the cookie is sent to besides the origin's.
     *
     * @return the domain, or null if unset
     */
    String domain();

    /**
     * Sets the {@code Domain} attribute.
     *
     * @param domain the domain, or null to unset it
     */
    void setDomain(String domain);

    /**
     * The {@code Path} attribute: the request paths the cookie is sent with.
     *
     * @return the path, or null if unset
     */
    String path();

    /**
     * Sets the {@code Path} attribute.
     *
     * @param path the path, or null to unset it
     */
    void setPath(String path);

    /**
     * Seconds until the cookie expires; 0 or less deletes it; {@link #UNDEFINED_MAX_AGE} if unset.
     *
     * @return the lifetime in seconds, or {@link #UNDEFINED_MAX_AGE}
     */
    long maxAge();

    /**
     * Sets the {@code Max-Age} attribute.
     *
     * @param maxAge the lifetime in seconds; 0 or less deletes the cookie; {@link #UNDEFINED_MAX_AGE} to
     *               unset it
     */
    void setMaxAge(long maxAge);

    /**
     * The {@code Secure} attribute: the cookie is sent over HTTPS only.
     *
     * @return true if set
     */
    boolean isSecure();

    /**
     * Sets or clears the {@code Secure} attribute.
     *
     * @param secure true to send the cookie over HTTPS only
     */
    void setSecure(boolean secure);

    /**
     * The {@code HttpOnly} attribute: scripts in the browser cannot read the cookie.
     *
     * @return true if set
     */
    boolean isHttpOnly();

    /**
     * Sets or clears the {@code HttpOnly} attribute.
     *
     * @param httpOnly true to hide the cookie from scripts
     */
    void setHttpOnly(boolean httpOnly);

    /**
     * The SameSite attribute, or null if unset.
     *
     * @return the attribute, or null
     */
    SameSite sameSite();

    /**
     * Sets the {@code SameSite} attribute.
     *
     * @param sameSite the attribute, or null to unset it
     */
    void setSameSite(SameSite sameSite);
}
