package io.rill.handler.codec.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.ByteToMessageDecoder;

/**
 * Decodes RESP2 and RESP3 as it arrives, without ever waiting for a whole aggregate or a whole
 * large value. Scalars come out whole; a bulk string comes out whole when it arrived whole, else as
 * a {@link BulkStringHeaderRedisMessage} and {@link BulkStringRedisContent} pieces as its bytes
 * arrive; an aggregate comes out as an {@link AggregateHeaderRedisMessage} followed by its
 * elements. Put a {@link RedisAggregator} after it to get whole {@link AggregateRedisMessage}s and
 * {@link FullBulkStringRedisMessage}s.
 *
 * <pre>
 *   TYPE ──'+' '-' ':' '_' '#' ',' '('──► read the line to CRLF ──► a scalar
 *     │ ──'$' len──► whole bulk string if it is all here, else header ──► BULK (pieces) ──► last piece
 *     │ ──'=' '!' len──► BLOB: wait for len + 2 bytes ──► verbatim string / blob error
 *     │ ──'*' '%' '~' '>' '|' n──► header; the next n elements belong to it (a stack of counts)
 *     │ ──'$?'──► streamed header ──► ';' n ──► BULK (n bytes, pieces) ──► ';' ... ──► ';0' last piece
 *     │ ──'*?' '%?' '~?'──► streamed header; elements until '.' ──► stream end
 *     └ ──other byte, server side, top level──► inline command ("PING\r\n"), as an array of bulk strings
 * </pre>
 *
 * <p><b>Bounds.</b> Every length is checked against {@link RedisLimits} when its line ends, before
 * anything is allocated or awaited for it; a line that passes its limit without an LF fails as
 * soon as the limit is passed; nesting deeper than {@code maxDepth} fails at the header that would
 * open it. Lines are searched once: bytes already searched are not searched again when more arrive.
 *
 * <p><b>Errors.</b> Anything malformed is a {@link RedisCodecException} quoting the input, a limit
 * passed a {@link RedisLimitExceededException} naming the setting. Messages decoded before it are
 * passed on first, then the exception through {@code exceptionCaught} (where a server may still
 * write {@code -ERR Protocol error}), then the decoder closes the channel and drops every later
 * byte, as a byte stream that lost its framing cannot be trusted again.
 *
 * <p><b>RESP3 streaming and attributes.</b> A streamed string ({@code $?}) comes out as
 * {@link BulkStringHeaderRedisMessage#STREAMED}, its chunks' bytes as pieces, and {@code ;0} as an
 * empty last piece; its chunks together are bounded by {@code maxBulkLength}. A streamed aggregate
 * ({@code *?}, {@code %?}, {@code ~?}) comes out as a header of
 * {@linkplain AggregateHeaderRedisMessage#STREAMED_LENGTH streamed length}, its elements, then a
 * {@link StreamEndRedisMessage}; its elements are bounded by {@code maxAggregateLength} and its
 * nesting by {@code maxDepth}, as for counted aggregates. An attribute ({@code |}) may stand before
 * any element, inside aggregates too; it does not count as one of the aggregate's elements.
 */
public class RedisDecoder extends ByteToMessageDecoder {

    private static final int TYPE = 0;
    private static final int BULK = 1;
    private static final int BLOB = 2;

    private final RedisLimits limits;
    private final boolean inlineCommands;

    /** TYPE, BULK or BLOB. */
    private int state = TYPE;
    /** BULK: content bytes of the streamed bulk string not yet passed on. */
    private int bulkRemaining;
    /** BLOB: its type byte and declared length. */
    private byte blobType;
    private int blobLength;
    /** Bytes after the reader index already searched for an LF without finding one. */
    private int scanned;
    /**
     * Elements still to come of each open aggregate, innermost at {@code depth - 1}; for a streamed
     * aggregate, the elements seen so far, as a negative count (-1 - seen).
     */
    private final int[] pending;
    /** Which open aggregates are attributes, whose completion is no element of the enclosing one. */
    private final boolean[] attribute;
    /** Which open aggregates are maps, whose streamed form must end after a whole pair. */
    private final boolean[] map;
    /** Inside a streamed string: the next line is a chunk header ({@code ;N}). */
    private boolean streamedString;
    /** The bytes of the streamed string's chunks so far, bounded by maxBulkLength. */
    private long streamedLength;
    /** Open aggregates. */
    private int depth;
    /** Bad input was seen: every later byte is dropped. */
    private boolean failed;

    /** A client-side decoder with {@link RedisLimits#DEFAULT}: no inline commands. */
    public RedisDecoder() {
        this(RedisLimits.DEFAULT, false);
    }

    /**
     * Creates a decoder.
     *
     * @param limits         the caps on what a peer may send
     * @param inlineCommands true on a server: a top-level line that starts with no RESP type byte is an
     *                       inline command ({@code PING}, {@code SET k v}), split on blanks with Redis's
     *                       quoting rules, and comes out as an array of bulk strings
     */
    public RedisDecoder(RedisLimits limits, boolean inlineCommands) {
        if (limits == null) {
            throw new NullPointerException("limits");
        }
        this.limits = limits;
        this.inlineCommands = inlineCommands;
        this.pending = new int[limits.maxDepth()];
        this.attribute = new boolean[limits.maxDepth()];
        this.map = new boolean[limits.maxDepth()];
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        try {
            while (in.isReadable() && step(in, out)) {
                // each step consumed something; go on while bytes remain
            }
        } catch (RedisCodecException e) {
            failed = true;
            in.skipBytes(in.readableBytes());
            // Fired here rather than thrown, so that it comes after the messages decoded before it and
            // before the close: a server's handler can still answer "-ERR Protocol error" in exceptionCaught.
            for (Object message : out) {
                fireDecoded(ctx, message);
            }
            out.clear();
            ctx.fireExceptionCaught(e);
            ctx.close();
        }
    }

    /** Decodes one thing; false if it needs more bytes (nothing consumed). */
    private boolean step(ByteBuf in, List<Object> out) {
        return switch (state) {
            case BULK -> bulkContent(in, out);
            case BLOB -> blob(in, out);
            default -> typed(in, out);
        };
    }

    private boolean typed(ByteBuf in, List<Object> out) {
        int start = in.readerIndex();
        byte type = in.getByte(start);
        if (streamedString != (type == ';')) {
            throw new RedisCodecException(streamedString
                    ? "a streamed string's chunk expected (';'), not " + RedisText.quote(in, start, 1)
                    : "a chunk (';') outside a streamed string");
        }
        if (!isTypeByte(type)) {
            if (inlineCommands && depth == 0) {
                return inline(in, out);
            }
            throw new RedisCodecException("unknown RESP type byte " + RedisText.quote(in, start, 1)
                    + (depth == 0 ? " at the start of a message" : " inside an aggregate"));
        }
        // The type byte, the line, then CR: the LF comes at most maxLineLength + 2 bytes in.
        int lf = findLf(in, limits.maxLineLength() + 2, limits.maxLineLength(), "maxLineLength");
        if (lf < 0) {
            return false;
        }
        int from = start + 1;
        int to = lf - 1; // the CR
        if (to < from || in.getByte(to) != '\r') {
            throw new RedisCodecException("line " + RedisText.quote(in, start, lf + 1 - start) + " ends in LF without CR");
        }
        if (in.indexOf(from, to, (byte) '\r') >= 0) {
            throw new RedisCodecException("line " + RedisText.quote(in, start, lf + 1 - start) + " holds a CR");
        }
        in.readerIndex(lf + 1);
        scanned = 0;
        switch (type) {
            case '+' -> element(out, simpleString(in, from, to));
            case '-' -> element(out, new ErrorRedisMessage(in.toString(from, to - from, StandardCharsets.UTF_8)));
            case ':' -> element(out, IntegerRedisMessage.of(parseInteger(in, from, to)));
            case '$' -> bulkHeader(in, out, from, to);
            case '_' -> {
                if (to != from) {
                    throw new RedisCodecException("null " + RedisText.quote(in, from, to - from) + " (expected: \"_\\r\\n\")");
                }
                element(out, NullRedisMessage.NULL);
            }
            case '#' -> element(out, parseBoolean(in, from, to));
            case ',' -> element(out, new DoubleRedisMessage(parseDouble(in, from, to)));
            case '(' -> {
                String digits = in.toString(from, to - from, StandardCharsets.US_ASCII);
                if (!RedisText.isInteger(digits)) {
                    throw new RedisCodecException("big number " + RedisText.quote(in, from, to - from) + " is not a number");
                }
                element(out, new BigNumberRedisMessage(digits));
            }
            case '=', '!' -> blobHeader(in, type, from, to);
            case ';' -> chunkHeader(in, out, from, to);
            case '.' -> streamEnd(in, out, from, to);
            default -> aggregateHeader(in, out, type, from, to);
        }
        return true;
    }

    /** The reply of most writes, {@code +OK}, and of PING, {@code +PONG}, shared; any other one made. */
    private static SimpleStringRedisMessage simpleString(ByteBuf in, int from, int to) {
        int length = to - from;
        if (length == 2 && in.getByte(from) == 'O' && in.getByte(from + 1) == 'K') {
            return SimpleStringRedisMessage.OK;
        }
        if (length == 4 && in.getInt(from) == ('P' << 24 | 'O' << 16 | 'N' << 8 | 'G')) {
            return SimpleStringRedisMessage.PONG;
        }
        return new SimpleStringRedisMessage(in.toString(from, length, StandardCharsets.UTF_8));
    }

    private static boolean isTypeByte(byte b) {
        return switch (b) {
            case '+', '-', ':', '$', '*', '_', '#', ',', '(', '=', '!', '%', '~', '>', '|', ';', '.' -> true;
            default -> false;
        };
    }

    /**
     * The index of the next LF at most {@code maxLfOffset} bytes after the reader index, or -1 to
     * wait for more; throws once that many bytes hold none. Resumes where the last search stopped.
     */
    private int findLf(ByteBuf in, int maxLfOffset, int limit, String setting) {
        int start = in.readerIndex();
        int end = (int) Math.min(in.writerIndex(), (long) start + maxLfOffset + 1);
        int lf = in.indexOf(start + scanned, end, (byte) '\n');
        if (lf >= 0) {
            return lf;
        }
        scanned = end - start;
        if (scanned > maxLfOffset) {
            throw new RedisLimitExceededException("a line of more than " + limit + " bytes without CRLF ("
                    + setting + "): " + RedisText.quote(in, start, 32));
        }
        return -1;
    }

    // ---------------------------------------------------------------- bulk strings and blobs

    private void bulkHeader(ByteBuf in, List<Object> out, int from, int to) {
        if (to == from + 1 && in.getByte(from) == '?') {
            out.add(BulkStringHeaderRedisMessage.STREAMED);
            streamedString = true;
            streamedLength = 0;
            return;
        }
        long length = parseLength(in, from, to, "bulk string");
        if (length == -1) {
            element(out, NullRedisMessage.NULL_BULK_STRING);
            return;
        }
        checkBulkLength(length, "bulk string");
        int len = (int) length;
        int readable = in.readableBytes();
        if (readable > len) {
            checkCrlf(in, in.readerIndex() + len, readable > len + 1);
            if (readable >= len + 2) {
                ByteBuf content = in.readRetainedSlice(len);
                in.skipBytes(2);
                element(out, new FullBulkStringRedisMessage(content));
                return;
            }
        }
        out.add(new BulkStringHeaderRedisMessage(len));
        bulkRemaining = len;
        state = BULK;
    }

    private boolean bulkContent(ByteBuf in, List<Object> out) {
        int readable = in.readableBytes();
        if (readable > bulkRemaining) {
            checkCrlf(in, in.readerIndex() + bulkRemaining, readable > bulkRemaining + 1);
            if (readable >= bulkRemaining + 2) {
                ByteBuf content = in.readRetainedSlice(bulkRemaining);
                in.skipBytes(2);
                state = TYPE;
                if (streamedString) {
                    out.add(new BulkStringRedisContent(content, false)); // more chunks, or ";0", follow
                } else {
                    element(out, new BulkStringRedisContent(content, true));
                }
                return true;
            }
        }
        if (bulkRemaining == 0) {
            return false; // the CR is here, its LF is not
        }
        int n = Math.min(readable, bulkRemaining);
        out.add(new BulkStringRedisContent(in.readRetainedSlice(n), false));
        bulkRemaining -= n;
        return true;
    }

    /** A streamed string's {@code ;N}: N bytes follow, or the string ends at {@code ;0}. */
    private void chunkHeader(ByteBuf in, List<Object> out, int from, int to) {
        long length = parseLength(in, from, to, "streamed string chunk");
        if (length < 0) {
            throw new RedisCodecException("streamed string chunk length -1 (expected: decimal digits)");
        }
        if (length == 0) {
            streamedString = false;
            element(out, new BulkStringRedisContent(io.rill.buffer.Unpooled.EMPTY_BUFFER, true));
            return;
        }
        streamedLength += length;
        checkBulkLength(streamedLength, "streamed string");
        bulkRemaining = (int) length;
        state = BULK;
    }

    /** Checks the CR at {@code index}, and the LF after it when {@code withLf}. */
    private static void checkCrlf(ByteBuf in, int index, boolean withLf) {
        if (in.getByte(index) != '\r' || withLf && in.getByte(index + 1) != '\n') {
            throw new RedisCodecException("value not followed by CRLF: " + RedisText.quote(in, index, withLf ? 2 : 1)
                    + " after its declared length");
        }
    }

    private void checkBulkLength(long length, String what) {
        if (length > limits.maxBulkLength()) {
            throw new RedisLimitExceededException(what + " of " + length + " bytes (maxBulkLength: "
                    + limits.maxBulkLength() + ")");
        }
    }

    private void blobHeader(ByteBuf in, byte type, int from, int to) {
        String what = type == '=' ? "verbatim string" : "blob error";
        long length = parseLength(in, from, to, what);
        if (length < 0) {
            throw new RedisCodecException(what + " length -1 (a " + what + " cannot be null)");
        }
        checkBulkLength(length, what);
        if (type == '=' && length < 4) {
            throw new RedisCodecException("verbatim string of " + length + " bytes (expected: at least 4, \"fmt:\")");
        }
        blobType = type;
        blobLength = (int) length;
        state = BLOB;
    }

    private boolean blob(ByteBuf in, List<Object> out) {
        int readable = in.readableBytes();
        int start = in.readerIndex();
        if (readable > blobLength) {
            checkCrlf(in, start + blobLength, readable > blobLength + 1);
        }
        if (readable < blobLength + 2) {
            return false;
        }
        RedisMessage message;
        if (blobType == '!') {
            message = new BulkErrorRedisMessage(in.toString(start, blobLength, StandardCharsets.UTF_8));
        } else {
            for (int i = 0; i < 3; i++) {
                byte b = in.getByte(start + i);
                if (b == ':' || b == '\r' || b == '\n' || b < 0) {
                    throw new RedisCodecException("verbatim string format " + RedisText.quote(in, start, 4)
                            + " (expected: three ASCII characters, then ':')");
                }
            }
            if (in.getByte(start + 3) != ':') {
                throw new RedisCodecException("verbatim string format " + RedisText.quote(in, start, 4)
                        + " (expected: three ASCII characters, then ':')");
            }
            message = new VerbatimStringRedisMessage(in.toString(start, 3, StandardCharsets.US_ASCII),
                    in.toString(start + 4, blobLength - 4, StandardCharsets.UTF_8));
        }
        in.skipBytes(blobLength + 2);
        state = TYPE;
        element(out, message);
        return true;
    }

    // ---------------------------------------------------------------- aggregates

    private void aggregateHeader(ByteBuf in, List<Object> out, byte type, int from, int to) {
        RedisAggregateType kind = switch (type) {
            case '*' -> RedisAggregateType.ARRAY;
            case '%' -> RedisAggregateType.MAP;
            case '~' -> RedisAggregateType.SET;
            case '>' -> RedisAggregateType.PUSH;
            default -> RedisAggregateType.ATTRIBUTE;
        };
        if (to == from + 1 && in.getByte(from) == '?') {
            if (kind == RedisAggregateType.PUSH || kind == RedisAggregateType.ATTRIBUTE) {
                throw new RedisCodecException("streamed " + kind.name().toLowerCase() + " (RESP3 streams only arrays,"
                        + " maps and sets)");
            }
            open(out, new AggregateHeaderRedisMessage(kind, AggregateHeaderRedisMessage.STREAMED_LENGTH), -1, false);
            return;
        }
        long length = parseLength(in, from, to, kind.name().toLowerCase());
        if (length == -1) {
            if (kind != RedisAggregateType.ARRAY) {
                throw new RedisCodecException(kind.name().toLowerCase() + " length -1 (only an array can be null)");
            }
            element(out, NullRedisMessage.NULL_ARRAY);
            return;
        }
        if (length > limits.maxAggregateLength() || length * kind.elementsPerEntry() > limits.maxAggregateLength()) {
            throw new RedisLimitExceededException(kind.name().toLowerCase() + " of " + length + " entries"
                    + " (maxAggregateLength: " + limits.maxAggregateLength() + ")");
        }
        AggregateHeaderRedisMessage header = new AggregateHeaderRedisMessage(kind, (int) length);
        boolean isAttribute = kind == RedisAggregateType.ATTRIBUTE;
        if (length == 0) {
            if (isAttribute) {
                out.add(header); // an empty attribute annotates the next element and is none itself
            } else {
                element(out, header);
            }
            return;
        }
        open(out, header, header.elementCount(), isAttribute);
    }

    private void open(List<Object> out, AggregateHeaderRedisMessage header, int count, boolean isAttribute) {
        if (depth == limits.maxDepth()) {
            throw new RedisLimitExceededException("aggregates nested more than " + limits.maxDepth()
                    + " deep (maxDepth)");
        }
        out.add(header);
        attribute[depth] = isAttribute;
        map[depth] = header.type() == RedisAggregateType.MAP;
        pending[depth++] = count;
    }

    /** The {@code .} that ends the innermost aggregate, which must be streamed. */
    private void streamEnd(ByteBuf in, List<Object> out, int from, int to) {
        if (to != from) {
            throw new RedisCodecException("stream end " + RedisText.quote(in, from - 1, to - from + 1)
                    + " (expected: \".\\r\\n\")");
        }
        if (depth == 0 || pending[depth - 1] >= 0) {
            throw new RedisCodecException("a stream end ('.') outside a streamed aggregate");
        }
        int seen = -1 - pending[depth - 1];
        if (seen % 2 != 0 && map[depth - 1]) {
            throw new RedisCodecException("a streamed map ended after " + seen + " elements (expected: key, value pairs)");
        }
        depth--;
        element(out, StreamEndRedisMessage.INSTANCE);
    }

    /** Passes a complete element on and closes every aggregate it completes. */
    private void element(List<Object> out, Object message) {
        checkStreamedRoom(message);
        out.add(message);
        while (depth > 0) {
            int d = depth - 1;
            if (pending[d] < 0) { // streamed: counts what came, as a negative number
                pending[d]--;
                return;
            }
            if (--pending[d] != 0) {
                return;
            }
            depth--;
            if (attribute[d]) {
                return; // an attribute is no element of what encloses it
            }
        }
    }

    /**
     * Fails before {@code message} is passed on if it would be one element too many for the streamed
     * aggregate it lands in, so that nothing over the bound goes downstream.
     */
    private void checkStreamedRoom(Object message) {
        for (int d = depth - 1; d >= 0; d--) {
            if (pending[d] < 0) {
                if (-1 - pending[d] >= limits.maxAggregateLength()) {
                    io.rill.buffer.ReferenceCountUtil.release(message);
                    throw new RedisLimitExceededException("a streamed aggregate of more than "
                            + limits.maxAggregateLength() + " elements (maxAggregateLength)");
                }
                return;
            }
            if (pending[d] != 1 || attribute[d]) {
                return;
            }
        }
    }

    // ---------------------------------------------------------------- inline commands

    private boolean inline(ByteBuf in, List<Object> out) {
        int lf = findLf(in, limits.maxInlineLength() + 1, limits.maxInlineLength(), "maxInlineLength");
        if (lf < 0) {
            return false;
        }
        int start = in.readerIndex();
        int end = lf > start && in.getByte(lf - 1) == '\r' ? lf - 1 : lf;
        List<RedisMessage> words = InlineCommandSplitter.split(in, start, end);
        in.readerIndex(lf + 1);
        scanned = 0;
        if (!words.isEmpty()) { // Redis ignores blank lines, which telnet users send
            out.add(new AggregateRedisMessage(RedisAggregateType.ARRAY, words));
        }
        return true;
    }

    // ---------------------------------------------------------------- numbers

    /** A length: -1, or decimal digits; Long.MAX_VALUE for more digits than any limit allows. */
    private static long parseLength(ByteBuf in, int from, int to, String what) {
        if (to - from == 2 && in.getByte(from) == '-' && in.getByte(from + 1) == '1') {
            return -1;
        }
        if (to == from + 1 && in.getByte(from) == '?') {
            throw new RedisCodecException("streamed " + what + " (length '?'): RESP3 streaming is not supported");
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            int d = in.getByte(i) - '0';
            if (d < 0 || d > 9) {
                throw new RedisCodecException(what + " length " + RedisText.quote(in, from, to - from)
                        + " (expected: -1 or decimal digits)");
            }
            value = value < 1L << 40 ? value * 10 + d : Long.MAX_VALUE;
        }
        if (to == from) {
            throw new RedisCodecException(what + " without a length");
        }
        return value;
    }

    /** A signed 64-bit decimal, optional sign; overflow is malformed, not wrapped. */
    private static long parseInteger(ByteBuf in, int from, int to) {
        int i = from;
        boolean negative = false;
        if (i < to && (in.getByte(i) == '-' || in.getByte(i) == '+')) {
            negative = in.getByte(i) == '-';
            i++;
        }
        if (i == to) {
            throw new RedisCodecException("integer " + RedisText.quote(in, from, to - from) + " has no digits");
        }
        // Accumulate negatively: Long.MIN_VALUE has no positive counterpart.
        long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
        long value = 0;
        for (; i < to; i++) {
            int d = in.getByte(i) - '0';
            if (d < 0 || d > 9 || value < limit / 10 || value * 10 < limit + d) {
                throw new RedisCodecException("integer " + RedisText.quote(in, from, to - from)
                        + " (expected: a signed 64-bit decimal)");
            }
            value = value * 10 - d;
        }
        return negative ? value : -value;
    }

    private static BooleanRedisMessage parseBoolean(ByteBuf in, int from, int to) {
        if (to == from + 1) {
            byte b = in.getByte(from);
            if (b == 't') {
                return BooleanRedisMessage.TRUE;
            } else if (b == 'f') {
                return BooleanRedisMessage.FALSE;
            }
        }
        throw new RedisCodecException("boolean " + RedisText.quote(in, from, to - from) + " (expected: t or f)");
    }

    /**
     * RESP3's double: {@code [+-]digits[.digits][(e|E)[+-]digits]}, {@code inf}, {@code -inf} or
     * {@code nan}. Checked first, as {@link Double#parseDouble} also takes hex, "Infinity" and suffixes.
     */
    private static double parseDouble(ByteBuf in, int from, int to) {
        String text = in.toString(from, to - from, StandardCharsets.US_ASCII);
        switch (text) {
            case "inf", "+inf" -> {
                return Double.POSITIVE_INFINITY;
            }
            case "-inf" -> {
                return Double.NEGATIVE_INFINITY;
            }
            case "nan", "-nan" -> {
                return Double.NaN;
            }
            default -> {
                if (!isDecimal(text)) {
                    throw new RedisCodecException("double " + RedisText.quote(in, from, to - from) + " is not a number");
                }
                return Double.parseDouble(text);
            }
        }
    }

    private static boolean isDecimal(String s) {
        int i = 0;
        int n = s.length();
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        int digits = 0;
        for (; i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9'; i++) {
            digits++;
        }
        if (i < n && s.charAt(i) == '.') {
            i++;
            for (; i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9'; i++) {
                digits++;
            }
        }
        if (digits == 0) {
            return false;
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            int exponent = 0;
            for (; i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9'; i++) {
                exponent++;
            }
            if (exponent == 0) {
                return false;
            }
        }
        return i == n;
    }
}
