package io.rill.handler.codec.redis;

import java.util.ArrayList;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/**
 * Joins what the {@link RedisDecoder} streams into whole messages: the pieces of a bulk string into
 * a {@link FullBulkStringRedisMessage}, an {@link AggregateHeaderRedisMessage} and its elements
 * (nested aggregates included) into an {@link AggregateRedisMessage}. Whole messages at the top
 * level pass through; downstream sees one message per command or reply.
 *
 * <p><b>Bounds.</b> Nothing is allocated from a declared length: a bulk string's buffer and an
 * aggregate's list grow as the bytes and elements arrive, so a peer that announces 64 MiB and sends
 * nothing costs nothing. What one top-level message holds is counted (content bytes plus
 * {@value RedisLimits#ELEMENT_OVERHEAD} per element) against {@link RedisLimits#maxMessageBytes()},
 * and the declared lengths and the depth are checked again, so the aggregator is safe behind any
 * decoder. Passing a limit, or pieces out of order, fails with a {@link RedisCodecException}: what
 * was held is released, the exception goes on through {@code exceptionCaught}, the channel closes
 * and every later message is dropped.
 *
 * <p><b>RESP3 streaming and attributes.</b> A streamed string's chunks are joined like a bulk
 * string's pieces, up to {@code maxBulkLength}; a streamed aggregate's elements are collected until
 * its {@link StreamEndRedisMessage}, up to {@code maxAggregateLength}. Both come out as the same
 * whole messages as their counted forms. An attribute inside an aggregate is passed on at once, as
 * a message of its own (as a top-level attribute is), ahead of the reply that holds the element it
 * annotates; it is not one of the aggregate's children.
 */
public final class RedisAggregator implements ChannelHandler {

    /** An aggregate being collected. */
    private static final class Open {
        final RedisAggregateType type;
        final int expected;
        final List<RedisMessage> children;
        /** Ended by a {@link StreamEndRedisMessage} rather than by a count. */
        final boolean streamed;

        Open(RedisAggregateType type, int expected) {
            this.type = type;
            this.expected = expected;
            this.streamed = expected < 0;
            this.children = new ArrayList<>(expected < 0 ? 16 : Math.min(expected, 16)); // grows with what arrives, not with what was announced
        }
    }

    private final RedisLimits limits;
    /** Open aggregates, innermost at {@code depth - 1}. */
    private final Open[] open;
    private int depth;
    /** The bulk string being joined, or null. */
    private ByteBuf bulk;
    /** Its bytes still to come; unknown for a streamed string. */
    private int bulkRemaining;
    /** The bulk string being joined is streamed: its pieces end at an empty last one. */
    private boolean bulkStreamed;
    /** Charged to the top-level message being collected. */
    private long held;
    /** The message channelRead passed to accept, which channelRead releases if accept throws. */
    private RedisMessage current;
    /** A limit was passed: every later message is dropped. */
    private boolean failed;

    /** An aggregator with {@link RedisLimits#DEFAULT}. */
    public RedisAggregator() {
        this(RedisLimits.DEFAULT);
    }

    /**
     * Creates an aggregator.
     *
     * @param limits the caps (use the decoder's)
     */
    public RedisAggregator(RedisLimits limits) {
        this.limits = limits;
        this.open = new Open[limits.maxDepth()];
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof RedisMessage message)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (failed) {
            ReferenceCountUtil.release(msg);
            return;
        }
        RedisMessage complete;
        try {
            current = message;
            complete = accept(ctx.alloc(), message);
        } catch (RedisCodecException e) {
            ReferenceCountUtil.release(msg); // accept throws before it takes the message over
            failed = true;
            releaseHeld();
            ctx.fireExceptionCaught(e);
            ctx.close();
            return;
        }
        if (complete != null) {
            ctx.fireChannelRead(complete);
        }
    }

    /** Takes {@code msg} over; returns a complete top-level message, or null while one is being collected. */
    private RedisMessage accept(ByteBufAllocator alloc, RedisMessage msg) {
        if (msg instanceof BulkStringRedisContent piece) {
            ByteBuf content = piece.content();
            int n = content.readableBytes();
            if (bulk != null && bulkStreamed) {
                if ((long) bulk.readableBytes() + n > limits.maxBulkLength()) {
                    throw new RedisLimitExceededException("streamed string of more than " + limits.maxBulkLength()
                            + " bytes (maxBulkLength)");
                }
                bulkRemaining = n; // a streamed piece fits whatever it holds
            }
            if (bulk == null || n > bulkRemaining || piece.isLast() && n != bulkRemaining) {
                throw new RedisCodecException("bulk string content that does not fit its header (" + bulkRemaining
                        + " bytes expected, " + n + " came" + (piece.isLast() ? ", last" : "") + ")");
            }
            charge(n);
            bulk.writeBytes(content);
            bulkRemaining -= n;
            if (!piece.isLast()) {
                piece.release();
                return null;
            }
            FullBulkStringRedisMessage whole = new FullBulkStringRedisMessage(bulk);
            bulk = null;
            RedisMessage done = completed(whole);
            piece.release(); // after: if completed throws, the caller releases the piece
            return done;
        }
        if (bulk != null) {
            throw new RedisCodecException(msg.getClass().getSimpleName() + " inside a streamed bulk string ("
                    + bulkRemaining + " bytes still expected)");
        }
        if (msg instanceof BulkStringHeaderRedisMessage header) {
            if (header.isStreamed()) {
                charge(RedisLimits.ELEMENT_OVERHEAD);
                bulk = alloc.buffer(Math.min(256, limits.maxBulkLength()), limits.maxBulkLength());
                bulkStreamed = true;
                return null;
            }
            bulkStreamed = false;
            if (header.length() > limits.maxBulkLength()) {
                throw new RedisLimitExceededException("bulk string of " + header.length() + " bytes (maxBulkLength: "
                        + limits.maxBulkLength() + ")");
            }
            charge(RedisLimits.ELEMENT_OVERHEAD);
            bulk = alloc.buffer(Math.min(header.length(), 8192), header.length());
            bulkRemaining = header.length();
            return null;
        }
        if (msg instanceof AggregateHeaderRedisMessage header) {
            if (header.elementCount() > limits.maxAggregateLength()) {
                throw new RedisLimitExceededException(header.type() + " of " + header.length()
                        + " entries (maxAggregateLength: " + limits.maxAggregateLength() + ")");
            }
            if (header.isStreamed() && (header.type() == RedisAggregateType.PUSH
                    || header.type() == RedisAggregateType.ATTRIBUTE)) {
                throw new RedisCodecException("streamed " + header.type() + " (RESP3 streams only arrays, maps and sets)");
            }
            charge(RedisLimits.ELEMENT_OVERHEAD);
            if (header.length() == 0) {
                AggregateRedisMessage empty = new AggregateRedisMessage(header.type(), new ArrayList<>(0));
                return header.type() == RedisAggregateType.ATTRIBUTE && depth > 0 ? empty : completed(empty);
            }
            if (depth == open.length) {
                throw new RedisLimitExceededException("aggregates nested more than " + open.length + " deep (maxDepth)");
            }
            open[depth++] = new Open(header.type(), header.elementCount());
            return null;
        }
        if (msg instanceof StreamEndRedisMessage) {
            if (depth == 0 || !open[depth - 1].streamed) {
                throw new RedisCodecException("a stream end outside a streamed aggregate");
            }
            Open ended = open[--depth];
            open[depth] = null;
            if (ended.children.size() % ended.type.elementsPerEntry() != 0) {
                for (RedisMessage child : ended.children) {
                    ReferenceCountUtil.release(child);
                }
                throw new RedisCodecException("a streamed " + ended.type + " ended after " + ended.children.size()
                        + " elements (expected: key, value pairs)");
            }
            return completed(new AggregateRedisMessage(ended.type, ended.children));
        }
        charge(RedisLimits.ELEMENT_OVERHEAD + (long) RedisEncoder.encodedSize(msg));
        return completed(msg);
    }

    /** Adds a complete element to the innermost open aggregate, closing every aggregate it completes. */
    private RedisMessage completed(RedisMessage element) {
        RedisMessage m = element;
        while (depth > 0) {
            Open innermost = open[depth - 1];
            innermost.children.add(m);
            if (innermost.streamed) {
                if (innermost.children.size() > limits.maxAggregateLength()) {
                    innermost.children.remove(innermost.children.size() - 1);
                    if (m != current) {
                        ReferenceCountUtil.release(m); // made here; the caller releases only what it passed in
                    }
                    throw new RedisLimitExceededException("a streamed " + innermost.type + " of more than "
                            + limits.maxAggregateLength() + " elements (maxAggregateLength)");
                }
                return null;
            }
            if (innermost.children.size() < innermost.expected) {
                return null;
            }
            open[--depth] = null;
            m = new AggregateRedisMessage(innermost.type, innermost.children);
            if (innermost.type == RedisAggregateType.ATTRIBUTE && depth > 0) {
                return m; // passed on alone, ahead of the reply that holds what it annotates
            }
        }
        held = 0;
        return m;
    }

    private void charge(long bytes) {
        held += bytes;
        if (held > limits.maxMessageBytes()) {
            throw new RedisLimitExceededException("a message holding more than " + limits.maxMessageBytes()
                    + " bytes (maxMessageBytes)");
        }
    }

    /** Releases the partial message: the bulk string being joined and every element collected. */
    private void releaseHeld() {
        if (bulk != null) {
            bulk.release();
            bulk = null;
        }
        while (depth > 0) {
            Open o = open[--depth];
            open[depth] = null;
            for (RedisMessage child : o.children) {
                ReferenceCountUtil.release(child);
            }
        }
        held = 0;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releaseHeld();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseHeld();
    }
}
