package io.rill.handler.codec;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.CompositeByteBuf;

/**
 * Joins newly read bytes to what a {@link ByteToMessageDecoder} has buffered so far.
 *
 * <p>{@link #MERGE} copies into one contiguous buffer: decoders then read a flat array, which
 * is fastest when frames are small and arrive in one or two reads. {@link #COMPOSITE} chains
 * the buffers without copying: better for large frames that arrive in many reads, at the price
 * of slower index lookups while decoding.
 */
@FunctionalInterface
public interface Cumulator {

    /**
     * Returns the buffer holding {@code cumulation}'s readable bytes followed by {@code in}'s.
     * Takes ownership of both: the caller uses only the result afterwards (which may be either
     * of them or a new buffer), and {@code in} is released even when this throws.
     *
     * @param alloc      allocates the new buffer when neither input can hold the bytes of both
     * @param cumulation the bytes gathered so far; owned by this method from the call on
     * @param in         the bytes just read; owned by this method from the call on
     * @return the buffer holding all the bytes, owned by the caller
     */
    ByteBuf cumulate(ByteBufAllocator alloc, ByteBuf cumulation, ByteBuf in);

    /** Copies into one buffer, growing it (or moving to a bigger one) when needed. */
    Cumulator MERGE = (alloc, cumulation, in) -> {
        if (!cumulation.isReadable()) {
            // Everything before was consumed: keep the new buffer itself, no copy.
            cumulation.release();
            return in;
        }
        try {
            int required = in.readableBytes();
            // Not ours to write into: shared with a slice handed downstream (growing in place
            // is fine, but discarding read bytes later would move bytes under the slice), or
            // read-only, or a view (slice) that cannot grow.
            if (cumulation.refCnt() > 1 || cumulation.isReadOnly() || cumulation.maxWritableBytes() < required) {
                return copyInto(alloc, cumulation, in);
            }
            cumulation.writeBytes(in);
            return cumulation;
        } finally {
            in.release();
        }
    };

    /** Chains the buffers into a {@link CompositeByteBuf}; never copies bytes. */
    Cumulator COMPOSITE = (alloc, cumulation, in) -> {
        if (!cumulation.isReadable()) {
            cumulation.release();
            return in;
        }
        if (cumulation instanceof CompositeByteBuf composite && composite.refCnt() == 1) {
            return composite.addComponent(true, in); // takes ownership of in, even on failure
        }
        CompositeByteBuf composite;
        try {
            // Unbounded component count: consolidating would copy, which this cumulator exists to avoid;
            // the decoder's frame limit bounds the bytes, and read components are dropped periodically.
            composite = alloc.compositeBuffer(Integer.MAX_VALUE);
        } catch (RuntimeException | Error e) {
            in.release();
            throw e;
        }
        composite.addComponent(true, cumulation);
        return composite.addComponent(true, in);
    };

    private static ByteBuf copyInto(ByteBufAllocator alloc, ByteBuf cumulation, ByteBuf in) {
        int old = cumulation.readableBytes();
        int total = old + in.readableBytes();
        if (total < 0) {
            throw new DecoderException("cumulation would exceed 2 GiB: " + old + " + " + in.readableBytes() + " bytes");
        }
        ByteBuf bigger = alloc.buffer(alloc.calculateNewCapacity(total, Integer.MAX_VALUE));
        try {
            bigger.writeBytes(cumulation, cumulation.readerIndex(), old).writeBytes(in, in.readerIndex(),
                    in.readableBytes());
        } catch (RuntimeException | Error e) {
            bigger.release();
            throw e;
        }
        cumulation.release();
        return bigger;
    }
}
