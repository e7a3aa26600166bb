package io.rill.handler.codec.http;

import static io.rill.handler.codec.http.HttpHeadParser.bad;

import io.rill.buffer.ByteBuf;

/**
 * The chunk-size line of the chunked coding (RFC 9112 §7.1.1), parsed exactly:
 *
 * <pre>
 *   chunk-size [ chunk-ext ] CRLF
 *   chunk-size     = 1*HEXDIG                         (at most 2^31-1 here)
 *   chunk-ext      = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )
 *   chunk-ext-val  = token / quoted-string
 * </pre>
 *
 * Anything else (a leading space, a sign, {@code 0x}, a size that overflows, an unterminated or
 * malformed quoted string) is rejected: lenient chunk parsing is how requests get smuggled past
 * a proxy that reads the same bytes differently (CVE-2025-58056, CVE-2026-33870, CVE-2026-42580).
 * Extensions are checked and ignored.
 */
final class ChunkLineParser {

    private ChunkLineParser() {
    }

    /** The size of the chunk whose line is the {@code length} bytes at {@code at}. */
    static int parse(ByteBuf in, int at, int length) {
        int end = at + length;
        int i = at;
        long size = 0;
        while (i < end) {
            int digit = Character.digit((char) (in.getByte(i) & 0xff), 16);
            if (digit < 0) {
                break;
            }
            size = size << 4 | digit;
            if (size > Integer.MAX_VALUE) {
                throw bad("chunk size larger than 2^31-1", in, at, length);
            }
            i++;
        }
        if (i == at) {
            throw bad("chunk size is not hexadecimal digits", in, at, length);
        }
        parseExtensions(in, i, end, at, length);
        return (int) size;
    }

    private static void parseExtensions(ByteBuf in, int i, int end, int lineAt, int lineLength) {
        while (true) {
            int next = skipBws(in, i, end);
            if (next == end) {
                if (next != i) {
                    // BWS belongs before ';' or around '=', never before the CRLF; llhttp refuses it there too.
                    throw bad("whitespace at the end of a chunk-size line", in, lineAt, lineLength);
                }
                return;
            }
            i = next;
            if (in.getByte(i) != ';') {
                throw bad("chunk size followed by something other than an extension", in, lineAt, lineLength);
            }
            i = skipBws(in, i + 1, end);
            int name = i;
            i = skipToken(in, i, end);
            if (i == name) {
                throw bad("chunk extension without a name", in, lineAt, lineLength);
            }
            int afterName = skipBws(in, i, end);
            if (afterName < end && in.getByte(afterName) == '=') {
                i = skipBws(in, afterName + 1, end);
                i = i < end && in.getByte(i) == '"' ? skipQuotedString(in, i, end, lineAt, lineLength) : requireToken(in, i, end, lineAt, lineLength);
            }
        }
    }

    private static int requireToken(ByteBuf in, int i, int end, int lineAt, int lineLength) {
        int after = skipToken(in, i, end);
        if (after == i) {
            throw bad("chunk extension with an empty or invalid value", in, lineAt, lineLength);
        }
        return after;
    }

    /** Past the closing quote of the quoted-string opening at {@code i}. */
    private static int skipQuotedString(ByteBuf in, int i, int end, int lineAt, int lineLength) {
        for (i++; i < end; i++) {
            int b = in.getByte(i) & 0xff;
            if (b == '"') {
                return i + 1;
            }
            if (b == '\\') {
                i++;
                if (i == end || !HttpHeaderValidation.isFieldValueChar(in.getByte(i) & 0xff)) {
                    throw bad("chunk extension with a bad quoted pair", in, lineAt, lineLength);
                }
            } else if (!HttpHeaderValidation.isFieldValueChar(b)) {
                throw bad("chunk extension quoted string with " + HttpHeaderValidation.describe(b), in, lineAt, lineLength);
            }
        }
        throw bad("chunk extension with an unterminated quoted string", in, lineAt, lineLength);
    }

    private static int skipToken(ByteBuf in, int i, int end) {
        while (i < end && HttpHeaderValidation.isTokenChar(in.getByte(i) & 0xff)) {
            i++;
        }
        return i;
    }

    private static int skipBws(ByteBuf in, int i, int end) {
        while (i < end && (in.getByte(i) == ' ' || in.getByte(i) == '\t')) {
            i++;
        }
        return i;
    }
}
