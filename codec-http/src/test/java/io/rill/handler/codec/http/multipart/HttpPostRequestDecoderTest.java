package io.rill.handler.codec.http.multipart;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rill.buffer.Unpooled;
import io.rill.handler.codec.http.DefaultFullHttpRequest;
import io.rill.handler.codec.http.DefaultHttpContent;
import io.rill.handler.codec.http.DefaultHttpRequest;
import io.rill.handler.codec.http.DefaultLastHttpContent;
import io.rill.handler.codec.http.HttpContent;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpVersion;

/**
 * Form bodies, urlencoded and multipart, fed every way; limits (H1-07) and upload files.
 *
 * <p>A test named after a case ID ({@code h1_17_...}) checks that case of docs/security-cases.md.
 */
class HttpPostRequestDecoderTest {

    private static final String BOUNDARY = "----rill7MA4YWxkTrZu0gW";

    @TempDir
    Path tmp;

    private static HttpRequest head(String contentType) {
        HttpRequest r = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/form");
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        return r;
    }

    /** Offers {@code body} in pieces of the given sizes, the last one as LastHttpContent. */
    private static HttpPostRequestDecoder offer(HttpPostRequestDecoder d, byte[] body, List<Integer> pieces) {
        int at = 0;
        for (int i = 0; i < pieces.size(); i++) {
            int n = pieces.get(i);
            HttpContent c = i == pieces.size() - 1 ? new DefaultLastHttpContent(Unpooled.copiedBuffer(body, at, n))
                    : new DefaultHttpContent(Unpooled.copiedBuffer(body, at, n));
            try {
                d.offer(c);
            } finally {
                c.release();
            }
            at += n;
        }
        return d;
    }

    /** Whole, byte by byte, split at every index (short bodies) and in random pieces. */
    private static List<List<Integer>> everyWay(int length) {
        List<List<Integer>> ways = new ArrayList<>();
        ways.add(List.of(length));
        List<Integer> ones = new ArrayList<>();
        for (int i = 0; i < length; i++) {
            ones.add(1);
        }
        ways.add(ones);
        for (int i = 1; i < length && length <= 600; i++) {
            ways.add(List.of(i, length - i));
        }
        Random random = new Random(length);
        for (int r = 0; r < 10; r++) {
            List<Integer> pieces = new ArrayList<>();
            for (int left = length; left > 0; ) {
                int n = Math.min(left, 1 + random.nextInt(Math.max(1, length / 4)));
                pieces.add(n);
                left -= n;
            }
            ways.add(pieces);
        }
        return ways;
    }

    private static String render(HttpPostRequestDecoder d) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (HttpData data : d.bodyHttpDatas()) {
            if (data instanceof Attribute a) {
                sb.append(a.name()).append('=').append(a.value()).append('\n');
            } else {
                FileUpload f = (FileUpload) data;
                sb.append(f.name()).append(" file ").append(f.filename()).append(' ').append(f.contentType()).append(' ')
                        .append(new String(f.bytes(), StandardCharsets.ISO_8859_1)).append('\n');
            }
        }
        return sb.toString();
    }

    @Test
    void decodesAUrlencodedFormEveryWay() throws IOException {
        byte[] body = "name=J%C3%B6rg+M&empty=&flag&&x=1&x=2&raw=caf\u00e9".getBytes(StandardCharsets.UTF_8);
        String expected = "name=Jörg M\nempty=\nflag=\nx=1\nx=2\nraw=café\n";
        for (List<Integer> pieces : everyWay(body.length)) {
            HttpPostRequestDecoder d = offer(new HttpPostRequestDecoder(head("application/x-www-form-urlencoded")), body, pieces);
            assertTrue(d.isComplete());
            assertFalse(d.isMultipart());
            assertEquals(expected, render(d), pieces.toString());
        }
    }

    @Test
    void aFullRequestIsDecodedAtOnce() {
        DefaultFullHttpRequest full = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/",
                Unpooled.copiedBuffer("a=1&b=2", StandardCharsets.US_ASCII));
        full.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/x-www-form-urlencoded; charset=UTF-8");
        HttpPostRequestDecoder d = new HttpPostRequestDecoder(full);
        full.release();
        assertTrue(d.isComplete());
        assertEquals("2", ((Attribute) d.bodyHttpData("b")).value());
    }

    /** H1-07: 10^6 fields {@code a&a&...} fail at field 129, as the bytes arrive, with 413. */
    @Test
    void h1_07_aMillionFieldsFailAtTheLimit() {
        HttpPostRequestDecoder d = new HttpPostRequestDecoder(head("application/x-www-form-urlencoded"));
        byte[] chunk = "a&".repeat(4096).getBytes(StandardCharsets.US_ASCII);
        HttpPostRequestDecoderException e = assertThrows(HttpPostRequestDecoderException.class, () -> {
            for (int sent = 0; sent < 1_000_000; sent += 4096) {
                HttpContent c = new DefaultHttpContent(Unpooled.wrappedBuffer(chunk));
                try {
                    d.offer(c);
                } finally {
                    c.release();
                }
            }
        });
        assertEquals(HttpPostRequestDecoderException.Kind.TOO_MANY_FIELDS, e.kind());
        assertEquals(HttpResponseStatus.CONTENT_TOO_LARGE, e.status());
        assertEquals(128, d.bodyHttpDatas().size());
        assertThrows(IllegalStateException.class, () -> d.offer(new DefaultLastHttpContent()));
    }

    /** H1-07: one 100 MB field without {@code &} or {@code =} fails once it passes the field limit. */
    @Test
    void h1_07_aHundredMegabyteFieldFailsAtTheBufferLimit() {
        HttpPostRequestDecoder d = new HttpPostRequestDecoder(head("application/x-www-form-urlencoded"));
        byte[] chunk = new byte[64 * 1024];
        java.util.Arrays.fill(chunk, (byte) 'a');
        long[] sent = {0};
        HttpPostRequestDecoderException e = assertThrows(HttpPostRequestDecoderException.class, () -> {
            while (sent[0] < 100L << 20) {
                HttpContent c = new DefaultHttpContent(Unpooled.wrappedBuffer(chunk));
                try {
                    d.offer(c);
                } finally {
                    c.release();
                }
                sent[0] += chunk.length;
            }
        });
        assertEquals(HttpPostRequestDecoderException.Kind.TOO_LARGE, e.kind());
        assertTrue(sent[0] <= 64 * 1024, "failed only after " + sent[0] + " bytes");
    }

    @Test
    void aMalformedEscapeIs400QuotingTheField() {
        HttpPostRequestDecoder d = new HttpPostRequestDecoder(head("application/x-www-form-urlencoded"));
        HttpPostRequestDecoderException e = assertThrows(HttpPostRequestDecoderException.class,
                () -> offer(d, "ok=1&bad=%zz\r\n".getBytes(StandardCharsets.US_ASCII), List.of(14)));
        assertEquals(HttpResponseStatus.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("bad=%zz\\x0d\\x0a"), e.getMessage());
    }

    private static byte[] multipartBody(String fileContent) {
        String s = "preamble to ignore\r\n"
                + "--" + BOUNDARY + "\r\n"
                + "Content-Disposition: form-data; name=\"title\"\r\n\r\n"
                + "Hello\r\nWorld\r\n"
                + "--" + BOUNDARY + "  \r\n"
                + "Content-Disposition: form-data; name=\"doc\"; filename=\"a;b \\\"c\\\".txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\n"
                + fileContent + "\r\n"
                + "--" + BOUNDARY + "\r\n"
                + "content-disposition: form-data; name=\"utf\"\r\ncontent-type: text/plain; charset=utf-8\r\n\r\n"
                + "\u00e9t\u00e9\r\n"
                + "--" + BOUNDARY + "--\r\nepilogue";
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void decodesMultipartEveryWay() throws IOException {
        byte[] body = multipartBody("line one\r\n--not the boundary\r\n");
        String expected = "title=Hello\r\nWorld\ndoc file a;b \"c\".txt text/plain line one\r\n--not the boundary\r\n"
                + "\nutf=été\n";
        for (List<Integer> pieces : everyWay(body.length)) {
            HttpPostRequestDecoder d = offer(new HttpPostRequestDecoder(head("multipart/form-data; boundary=\"" + BOUNDARY
                    + '"')), body, pieces);
            assertTrue(d.isComplete());
            assertEquals(expected, render(d), pieces.toString());
            d.destroy();
        }
    }

    /** a file past the memory threshold lands in a 0600 file inside a 0700 directory, deleted by destroy. */
    @Test
    void r05_aLargeUploadSpillsToAPrivateFile() throws IOException {
        String content = "x".repeat(100_000);
        HttpPostDecoderConfig config = HttpPostDecoderConfig.DEFAULT.withUploadParent(tmp);
        HttpPostRequestDecoder d = offer(new HttpPostRequestDecoder(head("multipart/form-data; boundary=" + BOUNDARY),
                config), multipartBody(content), List.of(5000, 70_000, multipartBody(content).length - 75_000));
        FileUpload f = (FileUpload) d.bodyHttpData("doc");
        assertFalse(f.isInMemory());
        assertEquals(100_000, f.length());
        assertEquals(content, new String(f.bytes(), StandardCharsets.US_ASCII));
        if (Files.getFileStore(f.file()).supportsFileAttributeView("posix")) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f.file())));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f.file().getParent())));
        }
        assertTrue(((FileUpload) d.bodyHttpDatas().get(1)).isInMemory() == f.isInMemory());
        Path file = f.file();
        d.destroy();
        assertFalse(Files.exists(file));
        assertFalse(Files.exists(file.getParent()));
    }

    @Test
    void aFailureHalfWayDeletesTheUploadsMadeSoFar() throws IOException {
        HttpPostDecoderConfig config = HttpPostDecoderConfig.DEFAULT.withUploadParent(tmp).withMaxFileSize(50_000);
        HttpPostRequestDecoder d = new HttpPostRequestDecoder(head("multipart/form-data; boundary=" + BOUNDARY), config);
        byte[] body = multipartBody("y".repeat(60_000));
        HttpPostRequestDecoderException e = assertThrows(HttpPostRequestDecoderException.class,
                () -> offer(d, body, List.of(30_000, body.length - 30_000)));
        assertEquals(HttpPostRequestDecoderException.Kind.TOO_LARGE, e.kind());
        try (var files = Files.walk(tmp)) {
            assertEquals(1, files.count(), "only the parent itself is left");
        }
    }

    @Test
    void multipartLimitsAndMalformations() {
        String part = "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nv\r\n";
        byte[] manyParts = (part.repeat(200) + "--" + BOUNDARY + "--").getBytes(StandardCharsets.US_ASCII);
        assertKind(HttpPostRequestDecoderException.Kind.TOO_MANY_FIELDS, manyParts);
        byte[] hugeHeaders = ("--" + BOUNDARY + "\r\nX-Pad: " + "p".repeat(70_000) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        assertKind(HttpPostRequestDecoderException.Kind.TOO_LARGE, hugeHeaders);
        byte[] hugeField = ("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n" + "v".repeat(70_000))
                .getBytes(StandardCharsets.US_ASCII);
        assertKind(HttpPostRequestDecoderException.Kind.TOO_LARGE, hugeField);
        assertKind(HttpPostRequestDecoderException.Kind.MALFORMED, part.getBytes(StandardCharsets.US_ASCII)); // no close
        assertKind(HttpPostRequestDecoderException.Kind.MALFORMED,
                ("--" + BOUNDARY + "\r\nContent-Type: text/plain\r\n\r\nv\r\n--" + BOUNDARY + "--").getBytes(StandardCharsets.US_ASCII));
        assertKind(HttpPostRequestDecoderException.Kind.MALFORMED,
                ("--" + BOUNDARY + "garbage").getBytes(StandardCharsets.US_ASCII));
        assertThrows(HttpPostRequestDecoderException.class, () -> new HttpPostRequestDecoder(head("multipart/form-data")));
        assertThrows(HttpPostRequestDecoderException.class,
                () -> new HttpPostRequestDecoder(head("multipart/form-data; boundary=" + "b".repeat(71))));
        assertThrows(HttpPostRequestDecoderException.class, () -> new HttpPostRequestDecoder(head("text/plain")));
    }

    private static void assertKind(HttpPostRequestDecoderException.Kind kind, byte[] body) {
        HttpPostRequestDecoder d = new HttpPostRequestDecoder(head("multipart/form-data; boundary=" + BOUNDARY));
        HttpPostRequestDecoderException e = assertThrows(HttpPostRequestDecoderException.class,
                () -> offer(d, body, List.of(body.length)));
        assertEquals(kind, e.kind(), e.getMessage());
    }

    @Test
    void aSmallFileStaysInMemory() throws IOException {
        HttpPostRequestDecoder d = offer(new HttpPostRequestDecoder(head("multipart/form-data; boundary=" + BOUNDARY)),
                multipartBody("tiny"), List.of(multipartBody("tiny").length));
        FileUpload f = (FileUpload) d.bodyHttpData("doc");
        assertTrue(f.isInMemory());
        assertArrayEquals("tiny".getBytes(StandardCharsets.US_ASCII), f.openStream().readAllBytes());
        d.destroy();
        assertThrows(IllegalStateException.class, f::bytes);
    }

    /** H1-22, found by fuzzing (FormFuzzTest corpus multipart/nul_in_part_content_type). */
    @Test
    void h1_22_aControlCharacterInAPartHeaderIsMalformed() {
        for (String header : List.of("Content-Type: te\u0000xt/plain", "Content-Type: text/plain\rX: y",
                "Content-Disposition: form-data; name=\"f\"; filename=\"a\u0001.txt\"")) {
            String body = "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.txt\"\r\n"
                    + header + "\r\n\r\nz\r\n--" + BOUNDARY + "--\r\n";
            HttpPostRequestDecoder d = new HttpPostRequestDecoder(head("multipart/form-data; boundary=" + BOUNDARY));
            try {
                HttpPostRequestDecoderException e = assertThrows(HttpPostRequestDecoderException.class,
                        () -> offer(d, body.getBytes(StandardCharsets.ISO_8859_1), List.of(body.length())));
                assertEquals(HttpPostRequestDecoderException.Kind.MALFORMED, e.kind(), header);
            } finally {
                d.destroy();
            }
        }
    }

    /**
     * A backslash in a name or file name is a plain character, as HTML's form submission writes it
     * and as the encoder writes it, so what the encoder sends decodes to what it was given; a
     * {@code \"} that cannot close the value is still a quote, for clients that escape the old way.
     * Found by fuzzing (FormFuzzTest corpus multipart/backslash_in_filename).
     */
    @Test
    void aBackslashInAFileNameSurvivesEncodeAndDecode() throws IOException {
        String[] filenames = {"C:\\dir\\a.txt", "a\\", "\\E]\\E]]", "q\"uote\\", "\\\\"};
        HttpPostRequestEncoder encoder = new HttpPostRequestEncoder(
                new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/form"), true);
        for (int i = 0; i < filenames.length; i++) {
            encoder.addFile("f\\" + i, filenames[i], "text/plain", new byte[] {'z'});
        }
        var request = encoder.finish();
        byte[] body = io.rill.buffer.ByteBufUtil.getBytes(request.content());
        String contentType = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
        request.release();
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < filenames.length; i++) {
            expected.append("f\\").append(i).append(" file ").append(filenames[i].replace("\"", "%22"))
                    .append(" text/plain z\n");
        }
        for (List<Integer> pieces : everyWay(body.length)) {
            HttpPostRequestDecoder d = offer(new HttpPostRequestDecoder(head(contentType)), body, pieces);
            assertEquals(expected.toString(), render(d), pieces.toString());
            d.destroy();
        }
        String legacy = "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"f\"; filename=\"say \\\"hi\\\".txt\"\r\n"
                + "\r\nz\r\n--" + BOUNDARY + "--\r\n";
        HttpPostRequestDecoder d = offer(new HttpPostRequestDecoder(head("multipart/form-data; boundary=" + BOUNDARY)),
                legacy.getBytes(StandardCharsets.US_ASCII), List.of(legacy.length()));
        assertEquals("say \"hi\".txt", ((FileUpload) d.bodyHttpData("f")).filename());
        d.destroy();
    }
}
