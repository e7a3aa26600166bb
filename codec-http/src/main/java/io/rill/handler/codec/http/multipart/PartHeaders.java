package io.rill.handler.codec.http.multipart;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Locale;

/**
 * The headers of one multipart part that matter to a form (RFC 7578 §4.2, §4.4):
 * {@code Content-Disposition: form-data; name="..."; filename="..."} and {@code Content-Type}.
 */
record PartHeaders(String name, String filename, String contentType, Charset charset) {

    /** Parses a header block (lines ending in CRLF). */
    static PartHeaders parse(String block) {
        String disposition = null;
        String contentType = null;
        for (String line : block.split("\r\n")) {
            if (line.isEmpty()) {
                continue;
            }
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                // As in an HTTP head (RFC 9110 §5.5): no control but HTAB, so no NUL or bare CR
                // reaches a file's name or content type (docs/security-cases.md, case H1-22).
                if ((c < ' ' && c != '\t') || c == 0x7f) {
                    throw MultipartParser.malformed("part header line with control character 0x"
                            + Integer.toHexString(c) + ": \"" + line.replaceAll("\\p{Cntrl}", "?") + '"');
                }
            }
            int colon = line.indexOf(':');
            if (colon <= 0 || line.charAt(0) == ' ' || line.charAt(0) == '\t') {
                throw MultipartParser.malformed("invalid part header line \"" + line.replaceAll("\\p{Cntrl}", "?") + '"');
            }
            String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).trim();
            if (name.equals("content-disposition")) {
                disposition = value;
            } else if (name.equals("content-type")) {
                contentType = value;
            }
        }
        if (disposition == null || !disposition.toLowerCase(Locale.ROOT).startsWith("form-data")) {
            throw MultipartParser.malformed("part without Content-Disposition: form-data");
        }
        String name = param(disposition, "name");
        if (name == null) {
            throw MultipartParser.malformed("part without a name: \"" + disposition.replaceAll("\\p{Cntrl}", "?") + '"');
        }
        Charset charset = StandardCharsets.UTF_8;
        String cs = contentType == null ? null : param(contentType, "charset");
        if (cs != null) {
            try {
                charset = Charset.forName(cs);
            } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
                throw MultipartParser.malformed("unknown charset \"" + cs.replaceAll("\\p{Cntrl}", "?") + '"');
            }
        }
        return new PartHeaders(name, param(disposition, "filename"), contentType, charset);
    }

    /**
     * The value of parameter {@code key} in {@code value} ({@code ; key=token} or
     * {@code ; key="quoted string"}), or null. Walks the string once, honouring quotes, so a
     * {@code ;} inside a quoted filename does not end it.
     *
     * <p>A backslash is an ordinary character: browsers and {@link HttpPostRequestEncoder} follow
     * HTML's form submission, which percent-encodes {@code "}, CR and LF in names and writes a
     * backslash as it is (RFC 7578 §4.2 allows that percent-encoding), so {@code C:\dir\a.txt} or
     * {@code a\} must come back unchanged. Reading MIME's quoted-pair here made decode, encode,
     * decode drop every backslash (FormFuzzTest corpus {@code multipart/backslash_in_filename}).
     * Older clients (Firefox before 2021, {@code curl --form-escape}) still write a quote as
     * {@code \"}; that one pair is read as a quote when its quote cannot be the closing one, which
     * the encoder's output never has, so both kinds of sender decode as they meant.
     */
    static String param(String value, String key) {
        int i = value.indexOf(';');
        while (i >= 0 && i < value.length()) {
            i++;
            while (i < value.length() && (value.charAt(i) == ' ' || value.charAt(i) == '\t')) {
                i++;
            }
            int eq = value.indexOf('=', i);
            if (eq < 0) {
                return null;
            }
            String k = value.substring(i, eq).trim();
            StringBuilder v = new StringBuilder();
            int j = eq + 1;
            if (j < value.length() && value.charAt(j) == '"') {
                for (j++; j < value.length() && value.charAt(j) != '"'; j++) {
                    char c = value.charAt(j);
                    if (c == '\\' && j + 1 < value.length() && value.charAt(j + 1) == '"' && !endsValue(value, j + 2)) {
                        c = value.charAt(++j);
                    }
                    v.append(c);
                }
                j++; // the closing quote
            } else {
                for (; j < value.length() && value.charAt(j) != ';'; j++) {
                    v.append(value.charAt(j));
                }
            }
            if (k.equalsIgnoreCase(key)) {
                return v.toString().trim();
            }
            i = value.indexOf(';', j);
        }
        return null;
    }

    /** Whether the quote at {@code at - 1} would close the value: only blanks, then {@code ;} or the end, follow. */
    private static boolean endsValue(String value, int at) {
        int k = at;
        while (k < value.length() && (value.charAt(k) == ' ' || value.charAt(k) == '\t')) {
            k++;
        }
        return k == value.length() || value.charAt(k) == ';';
    }
}
