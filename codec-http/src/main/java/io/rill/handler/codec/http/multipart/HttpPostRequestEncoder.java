package io.rill.handler.codec.http.multipart;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

import io.rill.buffer.Unpooled;
import io.rill.handler.codec.http.DefaultFullHttpRequest;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.QueryStringEncoder;

/**
 * Builds a form POST: {@code application/x-www-form-urlencoded} for fields only, or
 * {@code multipart/form-data} (RFC 7578) with files. The whole body is built in memory, so it
 * suits forms and small uploads, not large files.
 * <pre>{@code
 * HttpPostRequestEncoder form = new HttpPostRequestEncoder(new DefaultHttpRequest(HTTP_1_1, POST, "/up"), true);
 * form.addAttribute("title", "Holiday");
 * form.addFile("photo", "beach.jpg", "image/jpeg", bytes);
 * FullHttpRequest request = form.finish();
 * }</pre>
 *
 * <p>Names and file names go into {@code Content-Disposition} as quoted strings; CR, LF and
 * {@code "} in them are percent-encoded as the HTML standard's form encoding does, so a name can
 * neither end its quoted string nor start a header of its own (docs/security-cases.md, case H1-18).
 * A content type with a control character is refused.
 */
public class HttpPostRequestEncoder {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] BOUNDARY_CHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".toCharArray();

    private record Part(String name, String value, String filename, String contentType, byte[] content) {
    }

    private final HttpRequest request;
    private final boolean multipart;
    private final List<Part> parts = new ArrayList<>();

    /**
     * An encoder for the body of {@code request}, which is copied into the request {@link #finish()} returns.
     *
     * @param request   the request head (method, URI, headers) to send the form with; not null
     * @param multipart true for {@code multipart/form-data} (needed for files), false for urlencoded
     */
    public HttpPostRequestEncoder(HttpRequest request, boolean multipart) {
        if (request == null) {
            throw new NullPointerException("request");
        }
        this.request = request;
        this.multipart = multipart;
    }

    /**
     * Adds a text field.
     *
     * @param name  the field name
     * @param value the field value
     * @return this encoder
     */
    public HttpPostRequestEncoder addAttribute(String name, String value) {
        parts.add(new Part(name, value, null, null, null));
        return this;
    }

    /**
     * Adds a file from memory; multipart only.
     *
     * @param name        the field name
     * @param filename    the file name sent with it
     * @param contentType the file's media type
     * @param content     the file's bytes (copied)
     * @return this encoder
     * @throws IllegalStateException if the encoder is not multipart
     * @throws IllegalArgumentException if {@code contentType} holds a control character
     */
    public HttpPostRequestEncoder addFile(String name, String filename, String contentType, byte[] content) {
        if (!multipart) {
            throw new IllegalStateException("files need multipart/form-data");
        }
        checkNoControls(contentType, "content type");
        parts.add(new Part(name, null, filename, contentType, content.clone()));
        return this;
    }

    /**
     * Adds a file read from disk now; multipart only.
     *
     * @param name        the field name
     * @param file        the file to read; its name is sent as the file name
     * @param contentType the file's media type
     * @return this encoder
     * @throws IOException if the file cannot be read
     * @throws IllegalStateException if the encoder is not multipart
     */
    public HttpPostRequestEncoder addFile(String name, Path file, String contentType) throws IOException {
        return addFile(name, file.getFileName().toString(), contentType, Files.readAllBytes(file));
    }

    /**
     * The request with its body, {@code Content-Type} and {@code Content-Length}.
     *
     * @return a new full request, owned by the caller (write it, or release it)
     */
    public FullHttpRequest finish() {
        byte[] body;
        String contentType;
        if (multipart) {
            String boundary = boundary();
            body = multipartBody(boundary);
            contentType = "multipart/form-data; boundary=" + boundary;
        } else {
            QueryStringEncoder form = new QueryStringEncoder("");
            for (Part p : parts) {
                form.addParam(p.name(), p.value());
            }
            String s = form.toString();
            body = (s.isEmpty() ? s : s.substring(1)).getBytes(StandardCharsets.US_ASCII);
            contentType = "application/x-www-form-urlencoded";
        }
        HttpHeaders headers = request.headers().copy();
        headers.set(HttpHeaderNames.CONTENT_TYPE, contentType);
        headers.set(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(body.length));
        headers.remove(HttpHeaderNames.TRANSFER_ENCODING);
        return new DefaultFullHttpRequest(request.protocolVersion(), request.method(), request.uri(),
                Unpooled.wrappedBuffer(body), headers, new HttpHeaders());
    }

    private byte[] multipartBody(String boundary) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Part p : parts) {
            StringBuilder head = new StringBuilder("--").append(boundary)
                    .append("\r\nContent-Disposition: form-data; name=\"").append(escapeQuoted(p.name())).append('"');
            if (p.filename() != null) {
                head.append("; filename=\"").append(escapeQuoted(p.filename())).append('"');
                head.append("\r\nContent-Type: ").append(p.contentType() == null ? "application/octet-stream" : p.contentType());
            }
            head.append("\r\n\r\n");
            out.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
            out.writeBytes(p.content() != null ? p.content() : p.value().getBytes(StandardCharsets.UTF_8));
            out.writeBytes(new byte[] {'\r', '\n'});
        }
        out.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    /** A random boundary that occurs in no part (checked, so a crafted upload cannot end its part early). */
    private String boundary() {
        for (;;) {
            StringBuilder sb = new StringBuilder("----RillFormBoundary");
            for (int i = 0; i < 24; i++) {
                sb.append(BOUNDARY_CHARS[RANDOM.nextInt(BOUNDARY_CHARS.length)]);
            }
            String b = sb.toString();
            byte[] needle = b.getBytes(StandardCharsets.US_ASCII);
            boolean clash = false;
            for (Part p : parts) {
                byte[] hay = p.content() != null ? p.content() : p.value().getBytes(StandardCharsets.UTF_8);
                clash |= MultipartParser.indexOf(hay, 0, hay.length, needle) >= 0;
            }
            if (!clash) {
                return b;
            }
        }
    }

    /** HTML's multipart encoding of names: LF as %0A, CR as %0D, {@code "} as %22 (H1-18). */
    static String escapeQuoted(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\n' -> sb.append("%0A");
                case '\r' -> sb.append("%0D");
                case '"' -> sb.append("%22");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    private static void checkNoControls(String s, String what) {
        if (s != null && s.chars().anyMatch(c -> (c < ' ' && c != '\t') || c == 0x7f)) {
            throw new IllegalArgumentException(what + " with a control character: \"" + s.replaceAll("\\p{Cntrl}", "?") + '"');
        }
    }
}
