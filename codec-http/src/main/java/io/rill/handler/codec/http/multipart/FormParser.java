package io.rill.handler.codec.http.multipart;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.util.List;

/**
 * {@code application/x-www-form-urlencoded}: {@code name=value} pairs separated by {@code &}, with
 * {@code +} for space and {@code %XX} for bytes (WHATWG URL §5.1). Only the pair being read is
 * kept, and at most {@code maxBufferedBytes} of it; each pair is decoded as soon as its {@code &}
 * arrives. Empty pairs ({@code &&}) are skipped and not counted.
 */
final class FormParser implements BodyParser {

    private final Charset charset;
    private final HttpPostDecoderConfig config;
    private final List<HttpData> out;
    private final ByteArrayOutputStream pair = new ByteArrayOutputStream();
    private int fields;

    FormParser(Charset charset, HttpPostDecoderConfig config, List<HttpData> out) {
        this.charset = charset;
        this.config = config;
        this.out = out;
    }

    @Override
    public void feed(byte[] b, int off, int len) {
        int start = off;
        int end = off + len;
        for (int i = off; i < end; i++) {
            if (b[i] == '&') {
                append(b, start, i - start);
                completePair();
                start = i + 1;
            }
        }
        append(b, start, end - start);
    }

    private void append(byte[] b, int off, int len) {
        if (pair.size() + len > config.maxBufferedBytes()) {
            throw new HttpPostRequestDecoderException(HttpPostRequestDecoderException.Kind.TOO_LARGE,
                    "form field over " + config.maxBufferedBytes() + " bytes");
        }
        pair.write(b, off, len);
    }

    private void completePair() {
        if (pair.size() == 0) {
            return;
        }
        if (++fields > config.maxFields()) {
            throw new HttpPostRequestDecoderException(HttpPostRequestDecoderException.Kind.TOO_MANY_FIELDS,
                    "more than " + config.maxFields() + " form fields");
        }
        byte[] bytes = pair.toByteArray();
        pair.reset();
        int eq = indexOf(bytes, (byte) '=');
        String name = decode(bytes, 0, eq < 0 ? bytes.length : eq);
        String value = eq < 0 ? "" : decode(bytes, eq + 1, bytes.length);
        out.add(new Attribute(name, value));
    }

    @Override
    public void end() {
        completePair();
    }

    private static int indexOf(byte[] b, byte c) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    /** Percent- and plus-decodes {@code b[from, to)} of a whole pair {@code b}, then reads them in the charset (raw non-ASCII bytes too). */
    private String decode(byte[] b, int from, int to) {
        byte[] outBytes = new byte[to - from];
        int n = 0;
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c == '+') {
                outBytes[n++] = ' ';
            } else if (c == '%') {
                int hi = i + 2 < to ? Character.digit(b[i + 1], 16) : -1;
                int lo = i + 2 < to ? Character.digit(b[i + 2], 16) : -1;
                if (hi < 0 || lo < 0) {
                    throw new HttpPostRequestDecoderException(HttpPostRequestDecoderException.Kind.MALFORMED,
                            "invalid escape \"" + MultipartParser.printable(b, i, Math.min(i + 3, to)) + "\" at byte "
                                    + i + " of form field \"" + MultipartParser.printable(b, 0, b.length) + '"');
                }
                outBytes[n++] = (byte) (hi << 4 | lo);
                i += 2;
            } else {
                outBytes[n++] = c;
            }
        }
        return new String(outBytes, 0, n, charset);
    }
}
