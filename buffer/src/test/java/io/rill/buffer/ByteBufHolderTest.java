package io.rill.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The default methods of {@link ByteBufHolder}, through the smallest holder there is. */
class ByteBufHolderTest {

    /** A holder with one field besides its content, to see that the copies keep it. */
    private record Labelled(String label, ByteBuf content) implements ByteBufHolder {
        @Override
        public Labelled replace(ByteBuf content) {
            return new Labelled(label, content);
        }
    }

    private static Labelled hello() {
        return new Labelled("greeting", Unpooled.directBuffer(8).writeBytes("hello".getBytes(StandardCharsets.US_ASCII)));
    }

    private static String text(ByteBufHolder holder) {
        return holder.content().toString(StandardCharsets.US_ASCII);
    }

    @Test
    void countsAreTheContentsCounts() {
        Labelled holder = hello();
        assertEquals(1, holder.refCnt());
        assertSame(holder, holder.retain());
        assertSame(holder, holder.retain(2));
        assertEquals(4, holder.content().refCnt());
        holder.content().retain();
        assertEquals(5, holder.refCnt());
        assertFalse(holder.release());
        assertFalse(holder.release(3));
        assertEquals(1, holder.content().refCnt());
        assertTrue(holder.release());
        assertEquals(0, holder.content().refCnt());
    }

    @Test
    void releasingAFreedHolderFailsLikeItsContent() {
        Labelled holder = hello();
        assertTrue(holder.release());
        assertThrows(IllegalReferenceCountException.class, holder::release);
        assertThrows(IllegalReferenceCountException.class, holder::retain);
        Labelled other = hello();
        assertThrows(IllegalReferenceCountException.class, () -> other.release(2));
        assertTrue(other.release());
    }

    @Test
    void touchReturnsTheHolderAndLeavesTheCountAlone() {
        Labelled holder = hello();
        assertSame(holder, holder.touch());
        assertSame(holder, holder.touch("a hint for the leak report"));
        assertEquals(1, holder.refCnt());
        assertTrue(holder.release());
    }

    @Test
    void copyOwnsItsBytesAndKeepsTheOtherFields() {
        Labelled holder = hello();
        holder.content().readByte();
        Labelled copy = (Labelled) holder.copy();
        assertEquals("greeting", copy.label());
        assertEquals("ello", text(copy));
        assertNotSame(holder.content(), copy.content());
        assertTrue(holder.release());
        assertEquals(1, copy.refCnt());
        assertEquals("ello", text(copy));
        assertTrue(copy.release());
    }

    @Test
    void duplicateSharesMemoryAndTheCount() {
        Labelled holder = hello();
        Labelled duplicate = (Labelled) holder.duplicate();
        assertEquals("greeting", duplicate.label());
        assertEquals(1, duplicate.refCnt());
        duplicate.content().readByte();
        assertEquals("hello", text(holder), "the duplicate's indices are its own");
        holder.content().setByte(0, 'j');
        assertEquals("jello", text(holder));
        assertTrue(duplicate.release(), "one release of either frees both");
        assertEquals(0, holder.refCnt());
    }

    @Test
    void retainedDuplicateSharesMemoryWithACountOfItsOwnToRelease() {
        Labelled holder = hello();
        Labelled duplicate = (Labelled) holder.retainedDuplicate();
        assertEquals("greeting", duplicate.label());
        assertEquals(2, holder.refCnt());
        holder.content().setByte(0, 'j');
        assertEquals("jello", text(duplicate));
        assertFalse(holder.release());
        assertEquals("jello", text(duplicate));
        assertTrue(duplicate.release());
        assertEquals(0, holder.refCnt());
    }
}
