package io.rill.handler.codec.http.cookie;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.handler.codec.http.DateFormatter;

/** The client side: reading {@code Set-Cookie}, writing {@code Cookie}. */
class ClientCookieTest {

    @Test
    void decodesAttributes() {
        Cookie c = ClientCookieDecoder.STRICT.decode("sid=\"abc\"; Path=/app; Domain=.Example.com; Secure; HttpOnly; "
                + "SameSite=strict; Max-Age=100; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Unknown=1");
        assertEquals("sid", c.name());
        assertEquals("abc", c.value());
        assertTrue(c.wrap());
        assertEquals("/app", c.path());
        assertEquals("Example.com", c.domain());
        assertTrue(c.isSecure());
        assertTrue(c.isHttpOnly());
        assertEquals(Cookie.SameSite.Strict, c.sameSite());
        assertEquals(100, c.maxAge(), "Max-Age wins over Expires");
    }

    @Test
    void expiresAloneGivesAMaxAgeAndMalformedAttributesAreIgnored() {
        long inAnHour = System.currentTimeMillis() + 3_600_000;
        Cookie c = ClientCookieDecoder.LAX.decode("a=b; Expires=" + DateFormatter.format(inAnHour) + "; Max-Age=soon; "
                + "Path=relative; SameSite=sometimes");
        assertTrue(Math.abs(c.maxAge() - 3600) <= 2, "maxAge " + c.maxAge());
        assertNull(c.path());
        assertNull(c.sameSite());
        Cookie past = ClientCookieDecoder.LAX.decode("a=b; Expires=Wed, 21 Oct 2015 07:28:00 GMT");
        assertEquals(0, past.maxAge());
        assertEquals(Cookie.UNDEFINED_MAX_AGE, ClientCookieDecoder.LAX.decode("a=b; Expires=never").maxAge());
    }

    @Test
    void strictRefusesWhatLaxKeeps() {
        assertNull(ClientCookieDecoder.STRICT.decode("a=b c"));
        assertEquals("b c", ClientCookieDecoder.LAX.decode("a=b c").value());
        assertNull(ClientCookieDecoder.STRICT.decode("a b=c"));
        assertNull(ClientCookieDecoder.LAX.decode("=c"));
        assertNull(ClientCookieDecoder.LAX.decode("noequals"));
        assertNull(ClientCookieDecoder.LAX.decode("a=b\u0001"));
    }

    @Test
    void encodesNamesAndValuesLongestPathFirstWhenStrict() {
        DefaultCookie root = new DefaultCookie("r", "1");
        root.setPath("/");
        DefaultCookie deep = new DefaultCookie("d", "2");
        deep.setPath("/a/b");
        DefaultCookie quoted = new DefaultCookie("q", "3");
        quoted.setWrap(true);
        assertEquals("d=2; r=1; q=\"3\"", ClientCookieEncoder.STRICT.encode(root, deep, quoted));
        assertEquals("r=1; d=2; q=\"3\"", ClientCookieEncoder.LAX.encode(root, deep, quoted));
        assertEquals("a=b", ClientCookieEncoder.STRICT.encode("a", "b"));
        assertNull(ClientCookieEncoder.STRICT.encode(List.of()));
    }

    @Test
    void neitherModeEncodesCrLfOrSemicolon() {
        for (ClientCookieEncoder e : List.of(ClientCookieEncoder.STRICT, ClientCookieEncoder.LAX)) {
            for (String bad : List.of("v\r\nX-Evil: 1", "v; admin=1", "v\n")) {
                IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> e.encode("n", bad));
                assertFalse(ex.getMessage().contains("\n"), ex.getMessage());
                assertThrows(IllegalArgumentException.class, () -> e.encode(bad, "v"));
            }
        }
    }

    @Test
    void cookiesAreEqualByNamePathAndDomain() {
        DefaultCookie a = new DefaultCookie("n", "1");
        DefaultCookie b = new DefaultCookie("n", "2");
        assertEquals(a, b);
        b.setDomain("X.com");
        a.setDomain("x.com");
        assertEquals(0, a.compareTo(b));
        b.setPath("/p");
        assertFalse(a.equals(b));
        assertThrows(IllegalArgumentException.class, () -> new DefaultCookie("", "v"));
    }

    @Test
    void toStringNeverThrowsNorSplitsALogLine() {
        DefaultCookie c = new DefaultCookie("n", "v\r\nX");
        c.setPath("/p");
        c.setSecure(true);
        assertEquals("n=v\\x0d\\x0aX, path=/p, secure", c.toString());
    }

    /** docs/security-cases.md, case H1-21; found by CookieFuzzTest (corpus setCookieHeader/nul_in_path_attribute). */
    @Test
    void h1_21_aControlCharacterInAnAttributeSetsNoCookie() {
        for (ClientCookieDecoder decoder : List.of(ClientCookieDecoder.STRICT, ClientCookieDecoder.LAX)) {
            assertNull(decoder.decode("id=a; Path=/docs\u0000x"));
            assertNull(decoder.decode("id=a; Domain=example.com\u001f; Secure"));
            assertNull(decoder.decode("id=a; SameSite=Lax\u007f"));
            assertEquals("/docs", decoder.decode("id=a;\tPath=/docs").path(), "a tab is whitespace, not a control");
        }
    }

    /** Found by fuzzing (CookieFuzzTest corpus setCookieHeader/domain_dot_then_space): read as " x", written back as "x". */
    @Test
    void aDomainThatIsEmptyOrHoldsWhitespaceIsIgnored() {
        for (ClientCookieDecoder decoder : List.of(ClientCookieDecoder.STRICT, ClientCookieDecoder.LAX)) {
            assertEquals("example.com", decoder.decode("id=a; Domain=example.com; Domain=. Secure").domain());
            assertNull(decoder.decode("id=a; Domain=.").domain());
            assertNull(decoder.decode("id=a; Domain=").domain());
            assertEquals("example.com", decoder.decode("id=a; Domain=.example.com").domain());
        }
    }
}
