package io.rill.buffer;

/**
 * The whole of another buffer with independent indexes (starting as copies of the parent's).
 * Its capacity follows the parent's: growing the duplicate grows the parent.
 */
final class DuplicatedByteBuf extends AbstractDerivedByteBuf {

    DuplicatedByteBuf(AbstractByteBuf parent, boolean retained) {
        super(parent, 0, duplicateLength(parent), retained);
        readerIndex = parent.readerIndex();
        writerIndex = parent.writerIndex();
    }
}
