package io.rill.buffer;

import java.nio.ByteBuffer;
import java.util.Arrays;

import io.rill.util.concurrent.FastThreadLocal;

/**
 * The per-thread views behind {@link ByteBuf#ioView}: one reusable {@link ByteBuffer} per slot,
 * kept pointing at the memory it last showed. Pooled buffers share a few large chunks, so the
 * next request for a slot almost always names the same memory and only moves the view's position
 * and limit; a different chunk or array costs one duplicate or wrap, which the slot then keeps.
 * A slot keeps the memory it shows reachable until it is pointed elsewhere: a few chunks or arrays
 * per thread at most, as many as the widest gathering write it served.
 */
final class ThreadIoViews {

    private static final int MAX_SLOTS = 1024;
    private static final FastThreadLocal<ThreadIoViews> VIEWS = new FastThreadLocal<>() {
        @Override
        protected ThreadIoViews initialValue() {
            return new ThreadIoViews();
        }
    };

    /** The memory each slot's view shows: a direct ByteBuffer or a byte[]. */
    private Object[] sources = new Object[16];
    private ByteBuffer[] views = new ByteBuffer[16];

    private ThreadIoViews() {
    }

    /** A view of {@code length} bytes at {@code start} of direct {@code memory}. */
    static ByteBuffer direct(ByteBuffer memory, int start, int length, int slot) {
        ThreadIoViews t = VIEWS.get();
        t.ensure(slot);
        ByteBuffer view = t.views[slot];
        if (t.sources[slot] != memory) {
            view = memory.duplicate();
            t.sources[slot] = memory;
            t.views[slot] = view;
        }
        return around(view, start, length);
    }

    /** A view of {@code length} bytes at {@code start} of {@code memory}. */
    static ByteBuffer heap(byte[] memory, int start, int length, int slot) {
        ThreadIoViews t = VIEWS.get();
        t.ensure(slot);
        ByteBuffer view = t.views[slot];
        if (t.sources[slot] != memory) {
            view = ByteBuffer.wrap(memory);
            t.sources[slot] = memory;
            t.views[slot] = view;
        }
        return around(view, start, length);
    }

    private static ByteBuffer around(ByteBuffer view, int start, int length) {
        view.clear(); // limit back to capacity first: the new position may lie past the old limit
        view.position(start).limit(start + length);
        return view;
    }

    private void ensure(int slot) {
        if (slot < 0 || slot >= MAX_SLOTS) {
            throw new IndexOutOfBoundsException("slot: " + slot + " (expected: 0 <= slot < " + MAX_SLOTS + ")");
        }
        if (slot >= views.length) {
            int size = Math.min(MAX_SLOTS, Math.max(slot + 1, views.length << 1));
            sources = Arrays.copyOf(sources, size);
            views = Arrays.copyOf(views, size);
        }
    }
}
