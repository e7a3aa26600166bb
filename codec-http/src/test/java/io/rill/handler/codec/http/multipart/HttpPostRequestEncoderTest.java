package io.rill.handler.codec.http.multipart;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.rill.handler.codec.http.DefaultHttpRequest;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpVersion;

/**
 * Forms built by the encoder, read back by the decoder; H1-18 names that try to break out.
 *
 * <p>A test named after a case ID ({@code h1_17_...}) checks that case of docs/security-cases.md.
 */
class HttpPostRequestEncoderTest {

    private static HttpPostRequestEncoder encoder(boolean multipart) {
        return new HttpPostRequestEncoder(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/up"), multipart);
    }

    private static HttpPostRequestDecoder decode(FullHttpRequest request) {
        try {
            return new HttpPostRequestDecoder(request);
        } finally {
            request.release();
        }
    }

    @Test
    void urlencodedFieldsRoundTrip() {
        FullHttpRequest r = encoder(false).addAttribute("q", "a b&c=d").addAttribute("empty", "").finish();
        assertEquals("application/x-www-form-urlencoded", r.headers().get(HttpHeaderNames.CONTENT_TYPE));
        assertEquals("q=a%20b%26c%3Dd&empty=", r.content().toString(StandardCharsets.US_ASCII));
        HttpPostRequestDecoder d = decode(r);
        assertEquals("a b&c=d", ((Attribute) d.bodyHttpData("q")).value());
        assertEquals("", ((Attribute) d.bodyHttpData("empty")).value());
    }

    @Test
    void multipartFieldsAndFilesRoundTrip() throws IOException {
        byte[] binary = new byte[5000];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) i;
        }
        FullHttpRequest r = encoder(true).addAttribute("title", "été\r\nline").addFile("doc", "x.bin", "application/x-thing", binary)
                .finish();
        assertEquals(Integer.toString(r.content().readableBytes()), r.headers().get(HttpHeaderNames.CONTENT_LENGTH));
        HttpPostRequestDecoder d = decode(r);
        assertEquals("été\r\nline", ((Attribute) d.bodyHttpData("title")).value());
        FileUpload f = (FileUpload) d.bodyHttpData("doc");
        assertEquals("x.bin", f.filename());
        assertEquals("application/x-thing", f.contentType());
        assertArrayEquals(binary, f.bytes());
        d.destroy();
    }

    /** H1-18: a filename with {@code "} and CRLF stays inside its quoted string; no header is injected. */
    @Test
    void h1_18_aFilenameCannotInjectAPartHeader() throws IOException {
        FullHttpRequest r = encoder(true).addFile("up\"load", "a.txt\"\r\nContent-Type: text/html", "text/plain",
                "<b>hi</b>".getBytes(StandardCharsets.US_ASCII)).finish();
        String wire = r.content().toString(StandardCharsets.UTF_8);
        assertTrue(wire.contains("name=\"up%22load\"; filename=\"a.txt%22%0D%0AContent-Type: text/html\"\r\n"), wire);
        assertFalse(wire.contains("\r\nContent-Type: text/html"), wire);
        HttpPostRequestDecoder d = decode(r);
        FileUpload f = (FileUpload) d.bodyHttpData("up%22load");
        assertEquals("text/plain", f.contentType());
        assertEquals("a.txt%22%0D%0AContent-Type: text/html", f.filename());
        d.destroy();
    }

    @Test
    void refusesAContentTypeWithControlsAndFilesWithoutMultipart() {
        assertThrows(IllegalArgumentException.class, () -> encoder(true).addFile("f", "a", "text/plain\r\nX: 1", new byte[0]));
        assertThrows(IllegalStateException.class, () -> encoder(false).addFile("f", "a", "text/plain", new byte[0]));
    }
}
