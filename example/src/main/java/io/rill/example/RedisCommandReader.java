package io.rill.example;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.redis.RedisLimits;

/**
 * The redis-server example's fast path, ahead of the generic {@code RedisDecoder}: reads the form
 * every client library and {@code redis-benchmark} send, an array of bulk strings
 * ({@code *3\r\n$3\r\nSET\r\n...}), in place, and hands each whole command to the
 * {@link RedisServer.Session} without building a message per word; GET and SET go straight to the
 * store. The first byte it does not expect (an inline command, another RESP type, a length past its
 * small bounds, malformed framing) ends the fast path for the connection: that byte and all after it
 * go to the generic decoder, whose bounds and errors then apply as before.
 *
 * <p>Bounds: a command line at most 20 bytes ({@code *} and a count), at most {@value #MAX_WORDS}
 * words, each no longer than {@code maxBulkLength}; a partial command is kept until it completes
 * only while it holds at most {@value #MAX_HELD} bytes, beyond which the generic decoder (which
 * streams long values) takes over.
 */
final class RedisCommandReader implements ChannelHandler {

    static final int MAX_WORDS = 16;
    static final int MAX_HELD = 64 << 10;
    /** "*" or "$", at most 10 digits, CR, LF. */
    private static final int MAX_LINE = 13;
    private static final int NEED_MORE = 0;
    private static final int NOT_FAST = -1;
    private static final int CRLF = ('\r' << 8) | '\n';

    private final RedisServer.Session session;
    private final int maxBulkLength;
    /** Word i is bytes [starts[i], starts[i] + lengths[i]) of the buffer being read. */
    private final int[] starts = new int[MAX_WORDS];
    private final int[] lengths = new int[MAX_WORDS];
    /** Where the line {@link #number} read last ends: the index after its LF. */
    private int next;
    /** The bytes of a command that has not all arrived; null when none. */
    private ByteBuf held;
    /** The fast path is over: everything goes to the generic decoder. */
    private boolean generic;

    RedisCommandReader(RedisServer.Session session, RedisLimits limits) {
        this.session = session;
        this.maxBulkLength = limits.maxBulkLength();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (generic || !(msg instanceof ByteBuf data)) {
            ctx.fireChannelRead(msg);
            return;
        }
        ByteBuf in = data;
        if (held != null) {
            held.writeBytes(data);
            data.release();
            in = held;
            held = null;
        }
        try {
            while (in.isReadable()) {
                int result = command(in);
                if (result == NEED_MORE) {
                    if (in.readableBytes() > MAX_HELD) {
                        result = NOT_FAST;
                    } else {
                        held = ctx.alloc().buffer(Math.max(in.readableBytes() * 2, 512));
                        held.writeBytes(in);
                        return;
                    }
                }
                if (result == NOT_FAST) {
                    generic = true;
                    ctx.fireChannelRead(in.retain());
                    return;
                }
            }
        } finally {
            in.release();
        }
    }

    /** Reads and runs one command; NEED_MORE (nothing consumed) or NOT_FAST when it cannot. */
    private int command(ByteBuf in) {
        int at = in.readerIndex();
        int end = in.writerIndex();
        if (in.getByte(at) != '*') {
            return NOT_FAST;
        }
        long count = number(in, at + 1, end);
        if (count < 0) {
            return (int) count;
        }
        if (count < 1 || count > MAX_WORDS) {
            return NOT_FAST;
        }
        int pos = next;
        for (int w = 0; w < count; w++) {
            if (pos >= end) {
                return NEED_MORE;
            }
            if (in.getByte(pos) != '$') {
                return NOT_FAST;
            }
            long length = number(in, pos + 1, end);
            if (length < 0) {
                return (int) length;
            }
            if (length > maxBulkLength) {
                return NOT_FAST;
            }
            int start = next;
            if ((long) start + length + 2 > end) {
                return NEED_MORE;
            }
            int stop = start + (int) length;
            if (in.getShort(stop) != CRLF) {
                return NOT_FAST;
            }
            starts[w] = start;
            lengths[w] = (int) length;
            pos = stop + 2;
        }
        session.command(in, starts, lengths, (int) count);
        in.readerIndex(pos);
        return 1;
    }

    /**
     * The decimal at {@code from} up to its CRLF: its value, NEED_MORE if the line has not all
     * arrived, NOT_FAST if it is not digits or longer than a count can be. Sets {@link #next}.
     */
    private long number(ByteBuf in, int from, int end) {
        if (from + 2 < end) {
            // One digit, the common case of counts and of short words' lengths: one read of three bytes' worth.
            int digitCrLf = in.getUnsignedMedium(from);
            int digit = (digitCrLf >>> 16) - '0';
            if ((digitCrLf & 0xffff) == CRLF && digit >= 0 && digit <= 9) {
                next = from + 3;
                return digit;
            }
        }
        long value = 0;
        int i = from;
        for (; i < end && i - from < MAX_LINE - 3; i++) {
            byte b = in.getByte(i);
            if (b == '\r') {
                break;
            }
            if (b < '0' || b > '9') {
                return NOT_FAST;
            }
            value = value * 10 + (b - '0');
        }
        if (i + 1 >= end) {
            return i - from >= MAX_LINE - 3 ? NOT_FAST : NEED_MORE;
        }
        if (i == from || in.getByte(i) != '\r' || in.getByte(i + 1) != '\n') {
            return NOT_FAST;
        }
        next = i + 2;
        return value;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (held != null) {
            ReferenceCountUtil.release(held);
            held = null;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        handlerRemoved(ctx);
        ctx.fireChannelInactive();
    }
}
