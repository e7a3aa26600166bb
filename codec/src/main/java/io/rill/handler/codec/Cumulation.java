package io.rill.handler.codec;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;

/**
 * The bytes a {@link ByteToMessageDecoder} received and has not consumed yet: how reads are
 * joined to them, when consumed bytes are dropped, and who owns the buffer. One per decoder,
 * touched on every read; its methods are final and small so the JIT inlines them into the loop.
 */
final class Cumulation {

    /** Received bytes not yet consumed; null when there are none. */
    private ByteBuf buf;
    private Cumulator cumulator = Cumulator.MERGE;
    /** Compact the cumulation after this many reads that left bytes behind. */
    private int discardAfterReads = 16;
    /** Reads since the cumulation was last emptied or compacted. */
    private int readsSinceDiscard;

    void setCumulator(Cumulator cumulator) {
        if (cumulator == null) {
            throw new NullPointerException("cumulator");
        }
        this.cumulator = cumulator;
    }

    void setDiscardAfterReads(int reads) {
        if (reads <= 0) {
            throw new IllegalArgumentException("discardAfterReads: " + reads + " (expected: > 0)");
        }
        this.discardAfterReads = reads;
    }

    /** The received bytes, or null when there are none. */
    ByteBuf buffer() {
        return buf;
    }

    /** The received bytes, or an empty buffer when there are none. */
    ByteBuf orEmpty() {
        return buf != null ? buf : Unpooled.EMPTY_BUFFER;
    }

    /** Joins {@code data} to the received bytes; takes ownership of it. */
    void add(ByteBufAllocator alloc, ByteBuf data) {
        buf = buf == null ? data : cumulator.cumulate(alloc, buf, data);
    }

    /** See {@link ByteToMessageDecoder#handOver}: gives up {@code in} if it is ours alone. */
    boolean handOver(ByteBuf in) {
        if (in != buf || !ByteBufUtil.isExclusive(in)) {
            return false;
        }
        buf = null;
        readsSinceDiscard = 0;
        return true;
    }

    /** The read burst ended: start counting again, and compact now unless the loop still runs. */
    void readComplete(boolean compact) {
        readsSinceDiscard = 0;
        if (compact) {
            discardSomeReadBytes();
        }
    }

    /** Drops consumed bytes, unless a retained slice of the buffer is still out there. */
    void discardSomeReadBytes() {
        if (buf != null && buf.refCnt() == 1) {
            buf.discardSomeReadBytes();
        }
    }

    /** After a read's decode loop: release an emptied buffer, compact one kept for too many reads. */
    void tidyAfterRead() {
        if (buf == null) {
            return;
        }
        if (!buf.isReadable()) {
            release();
        } else if (++readsSinceDiscard >= discardAfterReads) {
            readsSinceDiscard = 0;
            discardSomeReadBytes();
        }
    }

    void release() {
        ByteBuf b = take();
        if (b != null) {
            b.release();
        }
    }

    /** Gives the buffer (possibly null) to the caller, leaving no cumulation behind. */
    ByteBuf take() {
        ByteBuf b = buf;
        buf = null;
        readsSinceDiscard = 0;
        return b;
    }
}
