package io.rill.handler.codec.http.cookie;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.fuzz.FuzzInput;

/**
 * Fuzz targets for both sides of cookies. Neither decoder throws, whatever the header; what the
 * strict decoders accept, the strict encoders write, and that decodes to the same cookies:
 * {@code Cookie} header → {@link ServerCookieDecoder} → {@link ClientCookieEncoder} → decode, and
 * {@code Set-Cookie} → {@link ClientCookieDecoder} → {@link ServerCookieEncoder} → decode with
 * every attribute kept. The first input byte picks strict (even) or lax (odd) decoding.
 */
class CookieFuzzTest {

    @FuzzTest
    void cookieHeader(byte[] input) {
        boolean strict = input.length == 0 || (input[0] & 1) == 0;
        String header = new String(FuzzInput.payload(input), StandardCharsets.ISO_8859_1);
        List<Cookie> cookies = (strict ? ServerCookieDecoder.STRICT : ServerCookieDecoder.LAX).decodeAll(header);
        if (!strict || cookies.isEmpty()) {
            return;
        }
        String encoded = ClientCookieEncoder.STRICT.encode(cookies);
        List<Cookie> again = ServerCookieDecoder.STRICT.decodeAll(encoded);
        assertEquals(pairs(cookies), pairs(again), () -> "decode, encode, decode: " + encoded);
    }

    @FuzzTest
    void setCookieHeader(byte[] input) {
        boolean strict = input.length == 0 || (input[0] & 1) == 0;
        String header = new String(FuzzInput.payload(input), StandardCharsets.ISO_8859_1);
        Cookie cookie = (strict ? ClientCookieDecoder.STRICT : ClientCookieDecoder.LAX).decode(header);
        if (!strict || cookie == null) {
            return;
        }
        String encoded = ServerCookieEncoder.STRICT.encode(cookie);
        Cookie again = ClientCookieDecoder.STRICT.decode(encoded);
        assertNotNull(again, () -> "the encoder wrote what the decoder refuses: " + encoded);
        assertEquals(attributes(cookie), attributes(again), () -> "decode, encode, decode: " + encoded);
    }

    private static List<String> pairs(List<Cookie> cookies) {
        List<String> pairs = new ArrayList<>();
        for (Cookie c : cookies) {
            pairs.add(c.name() + "=" + c.value() + (c.wrap() ? " (quoted)" : ""));
        }
        pairs.sort(null);
        return pairs;
    }

    private static String attributes(Cookie c) {
        return c.name() + "=" + c.value() + " wrap=" + c.wrap() + " domain=" + c.domain() + " path=" + c.path()
                + " maxAge=" + c.maxAge() + " secure=" + c.isSecure() + " httpOnly=" + c.isHttpOnly()
                + " sameSite=" + c.sameSite();
    }
}
