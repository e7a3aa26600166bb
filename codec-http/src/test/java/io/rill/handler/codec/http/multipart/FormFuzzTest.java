package io.rill.handler.codec.http.multipart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.buffer.Unpooled;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;
import io.rill.handler.codec.http.DefaultHttpContent;
import io.rill.handler.codec.http.DefaultHttpRequest;
import io.rill.handler.codec.http.DefaultLastHttpContent;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.HttpContent;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpVersion;

/**
 * Fuzz targets for the form decoders: a body offered whole and in fuzzer-chosen pieces decodes to
 * the same fields (or fails alike, only with an {@link HttpPostRequestDecoderException}); the
 * field count, a field's size and a file's size stay within the configuration (docs/security-cases.md,
 * case H1-07); and what decoded, written again by {@link HttpPostRequestEncoder}, decodes to the
 * same fields. Small limits make the fuzzer reach them; uploads spill to a private directory.
 */
class FormFuzzTest {

    private static final Path UPLOADS = uploadParent();
    private static final HttpPostDecoderConfig CONFIG = new HttpPostDecoderConfig(8, 256, 64, 1024, UPLOADS);
    private static final String BOUNDARY = "XyZ";
    /**
     * For decoding what the encoder wrote: a field may come back longer than it went in (a byte
     * that was not UTF-8 decodes to U+FFFD, which the encoder writes as nine characters), so the
     * limits were checked on the first decode and are wide here.
     */
    private static final HttpPostDecoderConfig WIDE = CONFIG.withMaxBufferedBytes(1 << 20);

    @FuzzTest
    void urlEncoded(byte[] input) {
        check(input, "application/x-www-form-urlencoded", false);
    }

    @FuzzTest
    void multipart(byte[] input) {
        check(input, "multipart/form-data; boundary=" + BOUNDARY, true);
    }

    private static void check(byte[] input, String contentType, boolean multipart) {
        FuzzLeaks.assertNoneReported();
        List<byte[]> whole = List.of(FuzzInput.payload(input));
        List<String> a = decode(contentType, whole, CONFIG);
        List<String> b = decode(contentType, FuzzInput.pieces(input), CONFIG);
        assertEquals(a, b, "decoded whole and in pieces");
        if (a.isEmpty() || a.get(a.size() - 1).startsWith("FAILED") || a.get(a.size() - 1).equals("(incomplete)")) {
            return;
        }
        HttpPostRequestEncoder encoder = new HttpPostRequestEncoder(request(null), multipart);
        for (String field : a) {
            String[] f = field.split(" ", -1);
            byte[] value = HexFormat.of().parseHex(f[f.length - 1]);
            if (f[0].equals("attribute")) {
                encoder.addAttribute(unhex(f[1]), new String(value, java.nio.charset.StandardCharsets.UTF_8));
            } else {
                encoder.addFile(unhex(f[1]), unhex(f[2]), unhex(f[3]), value);
            }
        }
        FullHttpRequest encoded = encoder.finish();
        try {
            byte[] body = io.rill.buffer.ByteBufUtil.getBytes(encoded.content());
            List<String> again = decode(encoded.headers().get(HttpHeaderNames.CONTENT_TYPE), List.of(body), WIDE);
            assertEquals(multipart ? a.stream().map(FormFuzzTest::asEncoded).toList() : a, again,
                    "decode, encode, decode");
        } finally {
            encoded.release();
        }
    }

    /** Renders each field as "attribute name value" or "file name filename type content" (hex), or the failure. */
    private static List<String> decode(String contentType, List<byte[]> pieces, HttpPostDecoderConfig config) {
        List<String> out = new ArrayList<>();
        HttpPostRequestDecoder decoder = new HttpPostRequestDecoder(request(contentType), config);
        try {
            for (int i = 0; i < pieces.size() || i == 0; i++) {
                boolean last = i >= pieces.size() - 1;
                byte[] bytes = pieces.isEmpty() ? new byte[0] : pieces.get(i);
                HttpContent content = last ? new DefaultLastHttpContent(Unpooled.wrappedBuffer(bytes))
                        : new DefaultHttpContent(Unpooled.wrappedBuffer(bytes));
                try {
                    decoder.offer(content);
                } finally {
                    content.release();
                }
            }
            assertTrue(decoder.bodyHttpDatas().size() <= CONFIG.maxFields(), "more fields than maxFields");
            for (HttpData data : decoder.bodyHttpDatas()) {
                out.add(render(data));
            }
            if (!decoder.isComplete()) {
                out.add("(incomplete)");
            }
        } catch (HttpPostRequestDecoderException e) {
            out.add("FAILED " + e.kind());
        } finally {
            decoder.destroy();
        }
        return out;
    }

    private static String render(HttpData data) {
        HexFormat hex = HexFormat.of();
        if (data instanceof Attribute a) {
            byte[] value = a.value().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(value.length <= CONFIG.maxBufferedBytes() * 3L, "a field over maxBufferedBytes");
            return "attribute " + hex.formatHex(a.name().getBytes(java.nio.charset.StandardCharsets.UTF_8)) + " "
                    + hex.formatHex(value);
        }
        FileUpload f = (FileUpload) data;
        assertTrue(f.length() <= CONFIG.maxFileSize(), "a file over maxFileSize");
        try {
            return "file " + hexOf(f.name()) + " " + hexOf(f.filename()) + " " + hexOf(f.contentType()) + " "
                    + hex.formatHex(f.bytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A multipart field as the encoder writes it: names and file names with {@code "}, CR and LF
     * percent-encoded, as HTML's form submission does (docs/security-cases.md, case H1-18); the
     * decoder hands names over as they were sent, so these three come back encoded.
     */
    private static String asEncoded(String field) {
        String[] f = field.split(" ", -1);
        int names = f[0].equals("file") ? 3 : 2;
        for (int i = 1; i < names; i++) {
            f[i] = hexOf(unhex(f[i]).replace("\"", "%22").replace("\r", "%0D").replace("\n", "%0A"));
        }
        return String.join(" ", f);
    }

    private static String hexOf(String s) {
        return HexFormat.of().formatHex(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static String unhex(String hex) {
        return new String(HexFormat.of().parseHex(hex), java.nio.charset.StandardCharsets.UTF_8);
    }

    private static HttpRequest request(String contentType) {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/form");
        if (contentType != null) {
            request.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        }
        return request;
    }

    private static Path uploadParent() {
        try {
            Path dir = Files.createTempDirectory("rill-fuzz-uploads");
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
