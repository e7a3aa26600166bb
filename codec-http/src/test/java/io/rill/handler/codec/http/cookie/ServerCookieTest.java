package io.rill.handler.codec.http.cookie;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.handler.codec.http.DateFormatter;

/** The server side: reading {@code Cookie}, writing {@code Set-Cookie}, strict and lax. */
class ServerCookieTest {

    @Test
    void encodesEveryAttribute() {
        DefaultCookie c = new DefaultCookie("sid", "abc123");
        c.setMaxAge(3600);
        c.setPath("/app");
        c.setDomain("example.com");
        c.setSecure(true);
        c.setHttpOnly(true);
        c.setSameSite(Cookie.SameSite.Lax);
        String header = ServerCookieEncoder.STRICT.encode(c);
        assertTrue(Pattern.matches("sid=abc123; Max-Age=3600; Expires=[A-Z][a-z]{2}, \\d\\d [A-Z][a-z]{2} \\d{4} "
                + "\\d\\d:\\d\\d:\\d\\d GMT; Path=/app; Domain=example.com; Secure; HttpOnly; SameSite=Lax", header), header);
        long expires = DateFormatter.parse(header.substring(header.indexOf("Expires=") + 8, header.indexOf("; Path")));
        assertTrue(Math.abs(expires - System.currentTimeMillis() - 3_600_000) < 5_000);
    }

    @Test
    void aSessionCookieIsJustNameAndValueAndWrapQuotes() {
        assertEquals("a=b", ServerCookieEncoder.STRICT.encode("a", "b"));
        DefaultCookie c = new DefaultCookie("a", "b c");
        c.setWrap(true);
        assertEquals("a=\"b c\"", ServerCookieEncoder.LAX.encode(c));
        DefaultCookie gone = new DefaultCookie("a", "");
        gone.setMaxAge(-5);
        assertTrue(ServerCookieEncoder.STRICT.encode(gone).startsWith("a=; Max-Age=0; Expires="));
        assertEquals(List.of("a=1", "b=2"), ServerCookieEncoder.STRICT.encode(
                List.of(new DefaultCookie("a", "1"), new DefaultCookie("b", "2"))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"v\r\nSet-Cookie: admin=1", "v\n", "v;Domain=evil.com", "v\u0000", "v\u007f"})
    void neitherModeLetsAValueInjectAHeaderOrAnAttribute(String value) {
        for (ServerCookieEncoder e : List.of(ServerCookieEncoder.STRICT, ServerCookieEncoder.LAX)) {
            IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> e.encode("n", value));
            assertFalse(ex.getMessage().contains("\r") || ex.getMessage().contains("\n"), ex.getMessage());
            assertThrows(IllegalArgumentException.class, () -> e.encode(value, "v"));
            DefaultCookie c = new DefaultCookie("n", "v");
            c.setPath("/" + value);
            assertThrows(IllegalArgumentException.class, () -> e.encode(c));
            c.setPath(null);
            c.setDomain(value);
            assertThrows(IllegalArgumentException.class, () -> e.encode(c));
        }
    }

    @Test
    void strictRefusesWhatLaxAllows() {
        assertThrows(IllegalArgumentException.class, () -> ServerCookieEncoder.STRICT.encode("a b", "v"));
        assertThrows(IllegalArgumentException.class, () -> ServerCookieEncoder.STRICT.encode("n", "a,b"));
        assertThrows(IllegalArgumentException.class, () -> ServerCookieEncoder.STRICT.encode("n", "caf\u00e9"));
        assertEquals("n=a,b", ServerCookieEncoder.LAX.encode("n", "a,b"));
        assertEquals("n{x}=v", ServerCookieEncoder.LAX.encode("n{x}", "v"));
    }

    @Test
    void decodesACookieHeader() {
        Set<Cookie> cookies = ServerCookieDecoder.STRICT.decode("a=1; b=\"two\";c=;  d=4 ;a=dup");
        assertEquals(List.of("a=1", "b=two", "c=", "d=4"), cookies.stream().map(c -> c.name() + "=" + c.value()).toList());
        assertTrue(cookies.stream().filter(c -> c.name().equals("b")).findFirst().orElseThrow().wrap());
        assertEquals(5, ServerCookieDecoder.STRICT.decodeAll("a=1; b=\"two\";c=;  d=4 ;a=dup").size());
    }

    @Test
    void skipsMalformedPairsWithoutFailingTheRest() {
        List<Cookie> strict = ServerCookieDecoder.STRICT.decodeAll("good=1; noequals; =novalue; $Version=1; bad name=2; "
                + "sp=a b; comma=a,b; ok=2");
        assertEquals(List.of("good", "ok"), strict.stream().map(Cookie::name).toList());
        List<Cookie> lax = ServerCookieDecoder.LAX.decodeAll("good=1; noequals; =novalue; $Version=1; sp=a b; "
                + "comma=a,b; ctl=a\u0001b; ok=2");
        assertEquals(List.of("good", "sp", "comma", "ok"), lax.stream().map(Cookie::name).toList());
    }

    @Test
    void decodesAtMostMaxCookies() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            sb.append("c").append(i).append("=v; ");
        }
        assertEquals(ServerCookieDecoder.MAX_COOKIES, ServerCookieDecoder.LAX.decodeAll(sb.toString()).size());
    }

    @Test
    void roundTripsThroughTheClientDecoder() {
        DefaultCookie c = new DefaultCookie("sid", "x");
        c.setPath("/");
        c.setSameSite(Cookie.SameSite.None);
        c.setSecure(true);
        c.setMaxAge(60);
        Cookie back = ClientCookieDecoder.STRICT.decode(ServerCookieEncoder.STRICT.encode(c));
        assertEquals(c, back);
        assertEquals(60, back.maxAge());
        assertEquals(Cookie.SameSite.None, back.sameSite());
        assertTrue(back.isSecure());
    }
}
