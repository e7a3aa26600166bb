package io.rill.buffer;

import io.rill.util.ResourceLeakDetector;
import io.rill.util.ResourceLeakTracker;
import java.nio.ByteBuffer;

/**
 * What the allocator hands out instead of a buffer the leak detector chose to track. It is a
 * view with the same bytes and count as the tracked buffer; releasing it to zero closes the
 * tracker, so only a buffer that is dropped unreleased is reported. At ADVANCED and PARANOID
 * level it also records the operations that typically hand a buffer on (retain, release,
 * touch, views, bulk copies, growth), so a report shows where the buffer went last.
 */
final class LeakAwareByteBuf extends AbstractDerivedByteBuf {

    private final ResourceLeakTracker<ByteBuf> tracker;
    private final AbstractByteBuf tracked;
    /** True at ADVANCED and PARANOID level: record accesses, not only touch() hints. */
    private final boolean recordAccess;

    LeakAwareByteBuf(AbstractByteBuf tracked, ResourceLeakTracker<ByteBuf> tracker) {
        super(tracked, 0, duplicateLength(tracked), false);
        this.tracked = tracked;
        this.tracker = tracker;
        this.recordAccess = ResourceLeakDetector.level().ordinal() >= ResourceLeakDetector.Level.ADVANCED.ordinal();
        readerIndex = tracked.readerIndex();
        writerIndex = tracked.writerIndex();
    }

    /** Slices and duplicates of this buffer release through it, so the tracker sees the last release. */
    @Override
    AbstractByteBuf countHolder() {
        return this;
    }

    private void record() {
        if (recordAccess) {
            tracker.record();
        }
    }

    @Override
    public ByteBuf unwrap() {
        return tracked;
    }

    @Override
    public ByteBuf touch() {
        tracker.record();
        return this;
    }

    @Override
    public ByteBuf touch(Object hint) {
        tracker.record(hint);
        return this;
    }

    @Override
    public ByteBuf retain(int increment) {
        record();
        return super.retain(increment);
    }

    @Override
    public boolean release(int decrement) {
        record();
        if (super.release(decrement)) {
            tracker.close(tracked);
            return true;
        }
        return false;
    }

    @Override
    public ByteBuf capacity(int newCapacity) {
        record();
        return super.capacity(newCapacity);
    }

    @Override
    public ByteBuf slice(int index, int length) {
        record();
        return super.slice(index, length);
    }

    @Override
    public ByteBuf retainedSlice(int index, int length) {
        record();
        return super.retainedSlice(index, length);
    }

    @Override
    public ByteBuf duplicate() {
        record();
        return super.duplicate();
    }

    @Override
    public ByteBuf retainedDuplicate() {
        record();
        return super.retainedDuplicate();
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length) {
        record();
        return super.getBytes(index, dst, dstIndex, length);
    }

    @Override
    public ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length) {
        record();
        return super.getBytes(index, dst, dstIndex, length);
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length) {
        record();
        return super.setBytes(index, src, srcIndex, length);
    }

    @Override
    public ByteBuf setBytes(int index, byte[] src, int srcIndex, int length) {
        record();
        return super.setBytes(index, src, srcIndex, length);
    }

    @Override
    public ByteBuffer nioBuffer(int index, int length) {
        record();
        return super.nioBuffer(index, length);
    }

    @Override
    public ByteBuffer ioView(int index, int length, int slot) {
        record();
        return super.ioView(index, length, slot);
    }
}
