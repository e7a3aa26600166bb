package io.rill.handler.codec.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.rill.handler.codec.compression.ZlibWrapper;

/**
 * The two small grammars of content codings: {@code Content-Encoding} lists (RFC 9110 §8.4) and
 * {@code Accept-Encoding} preferences with q-values (§12.5.3). Shared by the compressor and the
 * decompressor; no state.
 */
final class ContentCodings {

    /** Most codings we accept stacked on one message; more is an attack, not a use. */
    static final int MAX_STACKED = 4;

    private ContentCodings() {
    }

    /**
     * The decoders for a {@code Content-Encoding} value, in the order the codings were applied
     * (decode from the end); {@code identity} entries dropped. Null if a coding is unknown or there
     * are more than {@link #MAX_STACKED}.
     */
    static List<ZlibWrapper> decoders(String contentEncoding) {
        List<ZlibWrapper> out = new ArrayList<>(2);
        for (String part : contentEncoding.split(",", -1)) {
            String coding = part.trim().toLowerCase(Locale.ROOT);
            switch (coding) {
                case "gzip", "x-gzip" -> out.add(ZlibWrapper.GZIP);
                // RFC 9110 §8.4.1.2 says zlib; some senders use raw DEFLATE, which the first bytes tell apart.
                case "deflate", "x-deflate" -> out.add(ZlibWrapper.ZLIB_OR_NONE);
                case "identity", "" -> { }
                default -> {
                    return null;
                }
            }
            if (out.size() > MAX_STACKED) {
                return null;
            }
        }
        return out;
    }

    /**
     * The coding to answer with for an {@code Accept-Encoding} value: {@code gzip}, {@code deflate}
     * or null for identity. The highest q-value wins, gzip on a tie; {@code *} stands for any coding
     * not named; {@code q=0} refuses. A missing header means identity: RFC 9110 §12.5.3 allows any
     * coding, but a client that says nothing is safer served plain.
     */
    static String negotiate(CharSequence acceptEncoding) {
        if (acceptEncoding == null) {
            return null;
        }
        float gzip = -1;
        float deflate = -1;
        float star = -1;
        for (String part : acceptEncoding.toString().split(",")) {
            int semi = part.indexOf(';');
            String coding = (semi < 0 ? part : part.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
            float q = semi < 0 ? 1f : qValue(part.substring(semi + 1));
            switch (coding) {
                case "gzip", "x-gzip" -> gzip = Math.max(gzip, q);
                case "deflate" -> deflate = Math.max(deflate, q);
                case "*" -> star = Math.max(star, q);
                default -> { }
            }
        }
        if (gzip < 0) {
            gzip = star;
        }
        if (deflate < 0) {
            deflate = star;
        }
        if (gzip <= 0 && deflate <= 0) {
            return null;
        }
        return gzip >= deflate ? "gzip" : "deflate";
    }

    /** The weight in {@code params} ({@code q=0.5}); 0 if malformed, so a garbled entry refuses rather than asks. */
    private static float qValue(String params) {
        for (String p : params.split(";")) {
            String t = p.trim();
            if (t.length() > 2 && (t.charAt(0) == 'q' || t.charAt(0) == 'Q') && t.charAt(1) == '=') {
                return parseQValue(t, 2);
            }
        }
        return 1f;
    }

    /** RFC 9110 §12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ); 0 if {@code s} breaks it. */
    static float parseQValue(String s, int from) {
        int n = s.length() - from;
        char whole = n > 0 ? s.charAt(from) : 'x';
        if ((whole != '0' && whole != '1') || n > 5 || (n > 1 && s.charAt(from + 1) != '.')) {
            return 0f;
        }
        int thousandths = 0;
        for (int i = from + 2, scale = 100; i < s.length(); i++, scale /= 10) {
            char c = s.charAt(i);
            if (c < '0' || c > '9' || (whole == '1' && c != '0')) {
                return 0f;
            }
            thousandths += (c - '0') * scale;
        }
        return whole == '1' ? 1f : thousandths / 1000f;
    }

    /**
     * Whether a {@code Content-Type} names data that is compressed already (images, audio, video,
     * archives, web fonts): compressing it again costs CPU for nothing.
     */
    static boolean isCompressedType(CharSequence contentType) {
        if (contentType == null) {
            return false;
        }
        String t = contentType.toString().toLowerCase(Locale.ROOT);
        int semi = t.indexOf(';');
        if (semi >= 0) {
            t = t.substring(0, semi);
        }
        t = t.trim();
        if (t.startsWith("image/")) {
            return !t.equals("image/svg+xml") && !t.equals("image/bmp") && !t.equals("image/x-icon");
        }
        return t.startsWith("video/") || t.startsWith("audio/") || t.equals("font/woff") || t.equals("font/woff2")
                || t.equals("application/zip") || t.equals("application/gzip") || t.equals("application/x-gzip")
                || t.equals("application/zstd") || t.equals("application/x-bzip2") || t.equals("application/x-xz")
                || t.equals("application/x-7z-compressed") || t.equals("application/vnd.rar")
                || t.equals("application/pdf");
    }
}
