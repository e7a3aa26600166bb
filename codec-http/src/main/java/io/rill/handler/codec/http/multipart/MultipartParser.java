package io.rill.handler.codec.http.multipart;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code multipart/form-data} (RFC 7578 over RFC 2046 §5.1), parsed as bytes arrive:
 * <pre>
 *   preamble CRLF "--" boundary CRLF headers CRLF body CRLF "--" boundary CRLF headers ... "--" boundary "--" epilogue
 *            \_________ delimiter ______/                \__________ delimiter ________/
 * </pre>
 * The body gets a virtual CRLF in front, so the first delimiter looks like every other one. Only
 * unparsed bytes are kept: while a part's body is read, all but the last {@code delimiter - 1}
 * bytes (which may start a delimiter) go straight to the part; a header block may not exceed
 * {@code maxBufferedBytes}. Field values are kept in memory up to that bound, files up to the
 * memory threshold, then on disk.
 */
final class MultipartParser implements BodyParser {

    private enum State { PREAMBLE, AFTER_DELIMITER, HEADERS, BODY, EPILOGUE }

    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] CRLFCRLF = {'\r', '\n', '\r', '\n'};

    private final byte[] delimiter;
    private final HttpPostDecoderConfig config;
    private final UploadDirectory uploads;
    private final List<HttpData> out;
    /** Unparsed input is buf[start, end). */
    private byte[] buf = new byte[8192];
    private int start;
    private int end;
    private State state = State.PREAMBLE;
    private int parts;
    /** The field being read, or null while a file is. */
    private String fieldName;
    private Charset fieldCharset;
    private final ByteArrayOutputStream fieldValue = new ByteArrayOutputStream();
    private FileUpload file;

    MultipartParser(String boundary, HttpPostDecoderConfig config, UploadDirectory uploads, List<HttpData> out) {
        this.delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.US_ASCII);
        this.config = config;
        this.uploads = uploads;
        this.out = out;
        append(CRLF, 0, 2);
    }

    @Override
    public void feed(byte[] b, int off, int len) throws IOException {
        append(b, off, len);
        while (step()) {
            // each step consumed something or changed state
        }
    }

    @Override
    public void end() throws IOException {
        if (state != State.EPILOGUE) {
            throw malformed("the body ended before its closing boundary (in " + state + ")");
        }
    }

    /** Advances once; false when more input is needed. */
    private boolean step() throws IOException {
        return switch (state) {
            case PREAMBLE -> skipToDelimiter();
            case AFTER_DELIMITER -> afterDelimiter();
            case HEADERS -> headers();
            case BODY -> body();
            case EPILOGUE -> {
                start = end; // RFC 2046: the epilogue is ignored
                yield false;
            }
        };
    }

    private boolean skipToDelimiter() {
        int at = indexOf(delimiter, start);
        if (at < 0) {
            start = Math.max(start, end - delimiter.length + 1);
            return false;
        }
        start = at + delimiter.length;
        state = State.AFTER_DELIMITER;
        return true;
    }

    /** After a delimiter: {@code --} closes, else optional padding (RFC 2046 LWSP) then CRLF. */
    private boolean afterDelimiter() throws IOException {
        while (end - start >= 1 && (buf[start] == ' ' || buf[start] == '\t')) {
            start++;
        }
        if (end - start < 2) {
            return false;
        }
        if (buf[start] == '-' && buf[start + 1] == '-') {
            start += 2;
            state = State.EPILOGUE;
            return true;
        }
        if (buf[start] != '\r' || buf[start + 1] != '\n') {
            throw malformed("expected CRLF after the boundary, got \"" + printable(buf, start, Math.min(end, start + 16)) + '"');
        }
        start += 2;
        state = State.HEADERS;
        return true;
    }

    private boolean headers() throws IOException {
        int blockEnd;
        int next;
        if (end - start >= 2 && buf[start] == '\r' && buf[start + 1] == '\n') {
            blockEnd = start; // no header lines at all
            next = start + 2;
        } else {
            int at = indexOf(CRLFCRLF, start);
            if (at < 0) {
                if (end - start > config.maxBufferedBytes()) {
                    throw new HttpPostRequestDecoderException(HttpPostRequestDecoderException.Kind.TOO_LARGE,
                            "part headers over " + config.maxBufferedBytes() + " bytes");
                }
                return false;
            }
            blockEnd = at + 2;
            next = at + 4;
        }
        if (next - start > config.maxBufferedBytes()) {
            throw new HttpPostRequestDecoderException(HttpPostRequestDecoderException.Kind.TOO_LARGE,
                    "part headers over " + config.maxBufferedBytes() + " bytes");
        }
        String block = new String(buf, start, blockEnd - start, StandardCharsets.UTF_8);
        start = next;
        startPart(PartHeaders.parse(block));
        state = State.BODY;
        return true;
    }

    private void startPart(PartHeaders headers) {
        if (++parts > config.maxFields()) {
            throw new HttpPostRequestDecoderException(HttpPostRequestDecoderException.Kind.TOO_MANY_FIELDS,
                    "more than " + config.maxFields() + " parts");
        }
        if (headers.filename() != null) {
            file = new FileUpload(headers.name(), headers.filename(),
                    headers.contentType() == null ? "application/octet-stream" : headers.contentType(), uploads,
                    config.memoryThreshold(), config.maxFileSize());
            out.add(file); // listed at once, so destroy() finds it even if the body fails half-way
        } else {
            fieldName = headers.name();
            fieldCharset = headers.charset();
            fieldValue.reset();
        }
    }

    private boolean body() throws IOException {
        int at = indexOf(delimiter, start);
        if (at < 0) {
            int safe = end - (delimiter.length - 1) - start;
            if (safe > 0) {
                sink(start, safe);
                start += safe;
            }
            return false;
        }
        sink(start, at - start);
        start = at + delimiter.length;
        endPart();
        state = State.AFTER_DELIMITER;
        return true;
    }

    private void sink(int off, int len) throws IOException {
        if (file != null) {
            file.append(buf, off, len);
            return;
        }
        if (fieldValue.size() + len > config.maxBufferedBytes()) {
            throw new HttpPostRequestDecoderException(HttpPostRequestDecoderException.Kind.TOO_LARGE,
                    "form field '" + fieldName + "' over " + config.maxBufferedBytes() + " bytes");
        }
        fieldValue.write(buf, off, len);
    }

    private void endPart() throws IOException {
        if (file != null) {
            file.complete();
            file = null;
        } else {
            out.add(new Attribute(fieldName, fieldValue.toString(fieldCharset)));
            fieldValue.reset();
        }
    }

    private void append(byte[] b, int off, int len) {
        if (end + len > buf.length) {
            System.arraycopy(buf, start, buf, 0, end - start);
            end -= start;
            start = 0;
            if (end + len > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(end + len, buf.length * 2));
            }
        }
        System.arraycopy(b, off, buf, end, len);
        end += len;
    }

    private int indexOf(byte[] pattern, int from) {
        return indexOf(buf, from, end, pattern);
    }

    /** First index of {@code pattern} in {@code b[from, to)}, or -1. Patterns here are short (≤ 74 bytes). */
    static int indexOf(byte[] b, int from, int to, byte[] pattern) {
        byte first = pattern[0];
        outer:
        for (int i = from, last = to - pattern.length; i <= last; i++) {
            if (b[i] != first) {
                continue;
            }
            for (int j = 1; j < pattern.length; j++) {
                if (b[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    static HttpPostRequestDecoderException malformed(String message) {
        return new HttpPostRequestDecoderException(HttpPostRequestDecoderException.Kind.MALFORMED, message);
    }

    /** Bytes as text for a message: controls as {@code \xNN}, at most 100 of them. */
    static String printable(byte[] b, int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to && i < from + 100; i++) {
            int c = b[i] & 0xff;
            if (c < ' ' || c >= 0x7f) {
                sb.append(String.format("\\x%02x", c));
            } else {
                sb.append((char) c);
            }
        }
        return to - from > 100 ? sb.append("...").toString() : sb.toString();
    }

    /** The boundary parameter of a multipart Content-Type, checked against RFC 2046 §5.1.1. */
    static String boundary(String contentType) {
        for (String param : contentType.split(";")) {
            String p = param.trim();
            if (p.toLowerCase(Locale.ROOT).startsWith("boundary=")) {
                String b = p.substring(9);
                if (b.length() >= 2 && b.startsWith("\"") && b.endsWith("\"")) {
                    b = b.substring(1, b.length() - 1);
                }
                if (b.isEmpty() || b.length() > 70 || !b.chars().allMatch(MultipartParser::isBoundaryChar)
                        || b.endsWith(" ")) {
                    throw malformed("invalid multipart boundary \"" + b.replaceAll("\\p{Cntrl}", "?") + '"');
                }
                return b;
            }
        }
        throw malformed("multipart/form-data without a boundary");
    }

    private static boolean isBoundaryChar(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || "'()+_,-./:=? ".indexOf(c) >= 0;
    }
}
