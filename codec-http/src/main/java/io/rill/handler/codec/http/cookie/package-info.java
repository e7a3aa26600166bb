/**
 * HTTP cookies (RFC 6265): {@code Cookie} headers read by {@link io.rill.handler.codec.http.cookie.ServerCookieDecoder}
 * and written by {@link io.rill.handler.codec.http.cookie.ClientCookieEncoder}; {@code Set-Cookie} written by
 * {@link io.rill.handler.codec.http.cookie.ServerCookieEncoder} and read by
 * {@link io.rill.handler.codec.http.cookie.ClientCookieDecoder}. Each comes STRICT (RFC 6265 §4.1.1 syntax) and
 * LAX (what browsers accept); neither lets a name, value or attribute carry CR, LF, other controls or {@code ;}.
 */
package io.rill.handler.codec.http.cookie;
