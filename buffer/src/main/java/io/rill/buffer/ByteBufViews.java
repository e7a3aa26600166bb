package io.rill.buffer;

import io.rill.util.ResourceLeakTracker;

/**
 * Makes every view: slices, duplicates, read-only and leak-aware views. The buffer and allocator
 * types that hand views out call these and name no view class, so a new kind of view touches this
 * file, not their hierarchy. Arguments are checked by the caller (indexes, accessibility, the
 * retain a retained view stands for); these only construct.
 */
final class ByteBufViews {

    private ByteBufViews() {
    }

    /**
     * {@return a window of {@code length} bytes from {@code index} of {@code parent}}
     *
     * @param retained true if the caller retained {@code parent} for the view, which then counts on its own
     */
    static AbstractDerivedByteBuf slice(AbstractByteBuf parent, int index, int length, boolean retained) {
        return new SlicedByteBuf(parent, index, length, retained);
    }

    /**
     * {@return the whole of {@code parent} with indexes of its own}
     *
     * @param retained true if the caller retained {@code parent} for the view, which then counts on its own
     */
    static AbstractDerivedByteBuf duplicate(AbstractByteBuf parent, boolean retained) {
        return new DuplicatedByteBuf(parent, retained);
    }

    /** {@return a view of {@code parent} that refuses writes, sharing its count} */
    static AbstractDerivedByteBuf readOnly(AbstractByteBuf parent) {
        return new ReadOnlyByteBuf(parent);
    }

    /** {@return the view handed out instead of {@code tracked}, closing {@code tracker} at its last release} */
    static AbstractDerivedByteBuf leakAware(AbstractByteBuf tracked, ResourceLeakTracker<ByteBuf> tracker) {
        return new LeakAwareByteBuf(tracked, tracker);
    }
}
