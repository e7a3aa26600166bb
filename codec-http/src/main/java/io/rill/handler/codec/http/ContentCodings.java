package io.rill.handler.codec.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.rill.handler.codec.compression.CompressionLibrary;

/**
 * The two small grammars of content codings: {@code Content-Encoding} lists (RFC 9110 §8.4) and
 * {@code Accept-Encoding} preferences with q-values (§12.5.3). Shared by the compressor and the
 * decompressor; no state. Codings are named by their registered tokens: {@link #GZIP},
 * {@link #DEFLATE}, {@link #BR}, {@link #ZSTD}.
 */
final class ContentCodings {

    /** Most codings we accept stacked on one message; more is an attack, not a use. */
    static final int MAX_STACKED = 4;

    static final String GZIP = "gzip";
    static final String DEFLATE = "deflate";
    /** Brotli, RFC 7932 (registered as a content coding by that RFC's §13). */
    static final String BR = "br";
    /** Zstandard, RFC 8878; its use in HTTP (window at most 8 MiB) is RFC 9659. */
    static final String ZSTD = "zstd";

    private ContentCodings() {
    }

    /**
     * The codings of a {@code Content-Encoding} value, in the order they were applied (decode from
     * the end), each as its canonical token ({@code x-gzip} is {@link #GZIP}); {@code identity}
     * entries dropped. Null if a coding is unknown, needs a library that is not on the class path,
     * or there are more than {@link #MAX_STACKED}.
     */
    static List<String> decoders(String contentEncoding) {
        List<String> out = new ArrayList<>(2);
        for (String part : contentEncoding.split(",", -1)) {
            String coding = canonical(part.trim().toLowerCase(Locale.ROOT));
            if (coding == null) {
                return null;
            }
            if (!coding.equals("identity")) {
                if (!isAvailable(coding)) {
                    return null;
                }
                out.add(coding);
            }
            if (out.size() > MAX_STACKED) {
                return null;
            }
        }
        return out;
    }

    /** The token a coding is known by, "identity" for identity or an empty entry, null if unknown. */
    private static String canonical(String coding) {
        return switch (coding) {
            case "gzip", "x-gzip" -> GZIP;
            // RFC 9110 §8.4.1.2 says zlib; some senders use raw DEFLATE, which the first bytes tell apart.
            case "deflate", "x-deflate" -> DEFLATE;
            case "br" -> BR;
            case "zstd" -> ZSTD;
            case "identity", "" -> "identity";
            default -> null;
        };
    }

    /** Whether the codec of {@code coding} can be built here: br and zstd need their optional jars. */
    static boolean isAvailable(String coding) {
        return switch (coding) {
            case BR -> CompressionLibrary.BROTLI.isAvailable();
            case ZSTD -> CompressionLibrary.ZSTD.isAvailable();
            default -> true;
        };
    }

    /**
     * The coding to answer with for an {@code Accept-Encoding} value: one of {@code preference}, or
     * null for identity. Each coding's weight is its own entry's q-value, else that of {@code *}
     * (which stands for any coding not named), else it is not acceptable; {@code q=0} refuses. The
     * highest weight wins and a tie goes to the coding that comes first in {@code preference} (the
     * server's order, as §12.5.3 leaves ties to the server). A missing header means identity:
     * RFC 9110 §12.5.3 allows any coding, but a client that says nothing is safer served plain.
     * When nothing is acceptable, identity is sent even if the client refused it
     * ({@code identity;q=0}): the RFC allows that rather than a 406, and a body beats an error.
     *
     * @param preference canonical tokens, most preferred first, all of them available
     */
    static String negotiate(CharSequence acceptEncoding, List<String> preference) {
        if (acceptEncoding == null) {
            return null;
        }
        int n = preference.size();
        float[] weight = new float[n];
        java.util.Arrays.fill(weight, -1);
        float star = -1;
        for (String part : acceptEncoding.toString().split(",")) {
            int semi = part.indexOf(';');
            String token = (semi < 0 ? part : part.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
            float q = semi < 0 ? 1f : qValue(part.substring(semi + 1));
            if (token.equals("*")) {
                star = Math.max(star, q);
                continue;
            }
            String coding = token.equals("x-gzip") ? GZIP : token;
            int i = preference.indexOf(coding);
            if (i >= 0) {
                weight[i] = Math.max(weight[i], q);
            }
        }
        String best = null;
        float bestWeight = 0;
        for (int i = 0; i < n; i++) {
            float w = weight[i] < 0 ? star : weight[i];
            if (w > bestWeight) { // strictly greater: on a tie the earlier, preferred coding stays
                best = preference.get(i);
                bestWeight = w;
            }
        }
        return best;
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
