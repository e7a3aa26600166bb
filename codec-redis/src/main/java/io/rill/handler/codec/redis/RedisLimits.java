package io.rill.handler.codec.redis;

/**
 * The caps the {@link RedisDecoder} and the {@link RedisAggregator} enforce, so that no peer can
 * make them buffer or allocate without bound. Every length the peer declares is checked against
 * these before anything is allocated for it; passing one is a {@link RedisLimitExceededException}
 * naming the setting. Start from {@link #DEFAULT} and change what you need:
 * {@code RedisLimits.DEFAULT.withMaxBulkLength(512 << 20)}.
 *
 * @param maxBulkLength      the longest bulk string, blob error or verbatim string, in bytes.
 *                           Default 64 MiB; Redis itself allows 512 MiB ({@code proto-max-bulk-len}),
 *                           which is rarely wanted from one peer
 * @param maxLineLength      the longest simple string, error, number or length line, in bytes. Default 64 KiB
 * @param maxInlineLength    the longest inline command a server accepts, in bytes. Default 64 KiB, as Redis
 * @param maxAggregateLength the most elements one aggregate may declare (a map's pairs count twice).
 *                           Default 1 Mi
 * @param maxDepth           how deeply aggregates may nest; the top-level aggregate is depth 1. Default 32
 * @param maxMessageBytes    the most bytes the aggregator holds for one top-level message: content bytes
 *                           plus {@value #ELEMENT_OVERHEAD} per element, as every element costs an object.
 *                           Default 64 MiB
 */
public record RedisLimits(int maxBulkLength, int maxLineLength, int maxInlineLength, int maxAggregateLength,
                          int maxDepth, long maxMessageBytes) {

    /** What the aggregator charges per element on top of its content (see {@code maxMessageBytes}). */
    public static final int ELEMENT_OVERHEAD = 16;

    /** The defaults: 64 MiB bulk strings, 64 KiB lines, 1 Mi elements, depth 32, 64 MiB per message. */
    public static final RedisLimits DEFAULT = new RedisLimits(64 << 20, 64 << 10, 64 << 10, 1 << 20, 32, 64L << 20);

    /**
     * Checks the limits.
     *
     * @throws IllegalArgumentException if a limit is below 1 (a line limit below 16, a depth above 1024)
     *
     * @param maxBulkLength as above
     * @param maxLineLength as above
     * @param maxInlineLength as above
     * @param maxAggregateLength as above
     * @param maxDepth as above
     * @param maxMessageBytes as above
     */
    public RedisLimits {
        positive("maxBulkLength", maxBulkLength);
        positive("maxAggregateLength", maxAggregateLength);
        positive("maxMessageBytes", maxMessageBytes);
        if (maxLineLength < 16 || maxInlineLength < 16) {
            throw new IllegalArgumentException("maxLineLength " + maxLineLength + ", maxInlineLength "
                    + maxInlineLength + " (expected: >= 16, room for any number)");
        }
        if (maxDepth < 1 || maxDepth > 1024) {
            throw new IllegalArgumentException("maxDepth: " + maxDepth + " (expected: 1 to 1024)");
        }
        if (maxAggregateLength > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException("maxAggregateLength: " + maxAggregateLength
                    + " (expected: at most " + Integer.MAX_VALUE / 2 + ", a map counts twice)");
        }
    }

    private static void positive(String name, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
        }
    }

    /**
     * Changes one limit.
     *
     * @param value the new {@code maxBulkLength}, in bytes
     * @return these limits with {@code maxBulkLength} changed
     */
    public RedisLimits withMaxBulkLength(int value) {
        return new RedisLimits(value, maxLineLength, maxInlineLength, maxAggregateLength, maxDepth, maxMessageBytes);
    }

    /**
     * Changes one limit.
     *
     * @param value the new {@code maxLineLength}, in bytes
     * @return these limits with {@code maxLineLength} changed
     */
    public RedisLimits withMaxLineLength(int value) {
        return new RedisLimits(maxBulkLength, value, maxInlineLength, maxAggregateLength, maxDepth, maxMessageBytes);
    }

    /**
     * Changes one limit.
     *
     * @param value the new {@code maxInlineLength}, in bytes
     * @return these limits with {@code maxInlineLength} changed
     */
    public RedisLimits withMaxInlineLength(int value) {
        return new RedisLimits(maxBulkLength, maxLineLength, value, maxAggregateLength, maxDepth, maxMessageBytes);
    }

    /**
     * Changes one limit.
     *
     * @param value the new {@code maxAggregateLength}, in elements
     * @return these limits with {@code maxAggregateLength} changed
     */
    public RedisLimits withMaxAggregateLength(int value) {
        return new RedisLimits(maxBulkLength, maxLineLength, maxInlineLength, value, maxDepth, maxMessageBytes);
    }

    /**
     * Changes one limit.
     *
     * @param value the new {@code maxDepth}, in levels
     * @return these limits with {@code maxDepth} changed
     */
    public RedisLimits withMaxDepth(int value) {
        return new RedisLimits(maxBulkLength, maxLineLength, maxInlineLength, maxAggregateLength, value, maxMessageBytes);
    }

    /**
     * Changes one limit.
     *
     * @param value the new {@code maxMessageBytes}, in bytes
     * @return these limits with {@code maxMessageBytes} changed
     */
    public RedisLimits withMaxMessageBytes(long value) {
        return new RedisLimits(maxBulkLength, maxLineLength, maxInlineLength, maxAggregateLength, maxDepth, value);
    }
}
