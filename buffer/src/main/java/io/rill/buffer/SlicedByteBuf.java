package io.rill.buffer;

/**
 * A fixed-length window {@code [index, index + length)} of another buffer, readable from 0 to
 * {@code length}. Its capacity never changes.
 */
final class SlicedByteBuf extends AbstractDerivedByteBuf {

    SlicedByteBuf(AbstractByteBuf parent, int index, int length, boolean retained) {
        super(parent, index, length, retained);
        writerIndex = length;
    }
}
