package io.rill.buffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rill.buffer.pool.PoolArena;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * docs/security-cases.md, case R-04 where the contract tests cannot reach: composites read at their
 * component edges, and pooled memory reused after a release. In both, a wrong bound would hand
 * out bytes of a neighbour (the next region of a chunk, the hidden part of a component) rather
 * than fail; these tests surround the buffers with marker bytes so that any such read shows.
 */
class BufferSecurityRegressionTest {

    private static final byte MARKER = (byte) 0xEE;
    private final PooledByteBufAllocator alloc = new PooledByteBufAllocator(false, 1, 1, 8192, 9);

    /**
     * A composite of 3 + 5 + 1 + 8 bytes (values 0..16) whose components are slices of marker
     * filled parents and start after a consumed prefix, so the hidden bytes are markers too.
     */
    private static CompositeByteBuf compositeWithMarkersAround() {
        CompositeByteBuf composite = Unpooled.compositeBuffer();
        int value = 0;
        for (int length : new int[] {3, 5, 1, 8}) {
            ByteBuf parent = Unpooled.buffer(length + 8);
            for (int i = 0; i < length + 8; i++) {
                parent.writeByte(MARKER);
            }
            for (int i = 0; i < length; i++) {
                parent.setByte(4 + i, value++);
            }
            parent.readerIndex(2);
            ByteBuf component = parent.retainedSlice(2, length + 4).readerIndex(2).writerIndex(2 + length);
            parent.release();
            composite.addComponent(true, component);
        }
        return composite;
    }

    @Test
    void r04_compositeReadsAcrossEveryComponentEdgeSeeOnlyItsOwnBytes() {
        CompositeByteBuf buf = compositeWithMarkersAround();
        try {
            assertEquals(17, buf.capacity());
            for (int index = 0; index + 8 <= 17; index++) {
                long expected = 0;
                for (int i = 0; i < 8; i++) {
                    expected = expected << 8 | (index + i);
                }
                assertEquals(expected, buf.getLong(index), "getLong(" + index + ")");
                assertEquals(Long.reverseBytes(expected), buf.getLongLE(index), "getLongLE(" + index + ")");
            }
            byte[] all = new byte[17];
            buf.getBytes(0, all);
            for (int i = 0; i < 17; i++) {
                assertEquals(i, all[i]);
            }
        } finally {
            buf.release();
        }
    }

    @Test
    void r04_compositeAccessesPastTheLastComponentThrow() {
        CompositeByteBuf buf = compositeWithMarkersAround();
        try {
            byte[] dst = new byte[4];
            Arrays.fill(dst, (byte) 7);
            for (int index = 10; index <= 17; index++) {
                int i = index;
                assertThrows(IndexOutOfBoundsException.class, () -> buf.getLong(i));
            }
            assertThrows(IndexOutOfBoundsException.class, () -> buf.getByte(17));
            assertThrows(IndexOutOfBoundsException.class, () -> buf.getInt(14));
            assertThrows(IndexOutOfBoundsException.class, () -> buf.getBytes(15, dst, 0, 4));
            assertThrows(IndexOutOfBoundsException.class, () -> buf.getBytes(Integer.MAX_VALUE, dst, 0, 2));
            assertThrows(IndexOutOfBoundsException.class, () -> buf.getBytes(2, dst, 0, -1));
            assertThrows(IndexOutOfBoundsException.class, () -> buf.getBytes(16, ByteBuffer.allocate(2)));
            assertThrows(IndexOutOfBoundsException.class, () -> buf.getLong(Integer.MAX_VALUE - 3));
            assertThrows(IndexOutOfBoundsException.class, () -> buf.nioBuffers(12, 6));
            assertThrows(IndexOutOfBoundsException.class, () -> buf.setBytes(15, new byte[4]));
            assertArrayEquals(new byte[] {7, 7, 7, 7}, dst);
        } finally {
            buf.release();
        }
    }

    @Test
    void r04_compositeThatShrankRefusesItsFormerRange() {
        CompositeByteBuf buf = compositeWithMarkersAround();
        try {
            buf.removeComponent(3);
            assertEquals(9, buf.capacity());
            assertEquals(8, buf.getByte(8));
            assertThrows(IndexOutOfBoundsException.class, () -> buf.getByte(9));
            assertThrows(IndexOutOfBoundsException.class, () -> buf.getLong(2));
            buf.capacity(4);
            assertThrows(IndexOutOfBoundsException.class, () -> buf.getShort(3));
            assertEquals(3, buf.getByte(3));
        } finally {
            buf.release();
        }
    }

    @Test
    void r04_doubleReleaseOfACompositeThrows() {
        CompositeByteBuf buf = compositeWithMarkersAround();
        buf.release();
        assertThrows(IllegalReferenceCountException.class, buf::release);
        assertThrows(IllegalReferenceCountException.class, () -> buf.getLong(0));
        assertThrows(IllegalReferenceCountException.class, () -> buf.getBytes(0, new byte[4]));
    }

    /** Raw pooled buffers, without the leak-aware view the allocator adds under PARANOID. */
    @Test
    void r04_readAfterReleaseFailsEvenWhenThePoolGaveTheMemoryToAnotherBuffer() {
        PoolArena<byte[]> arena = alloc.heapArenas().get(0);
        HeapByteBuf first = new HeapByteBuf(alloc, Integer.MAX_VALUE);
        arena.allocate(arena.currentCache(), 64, first);
        first.writeLong(0x1111111111111111L);
        first.release();

        HeapByteBuf second = new HeapByteBuf(alloc, Integer.MAX_VALUE);
        arena.allocate(arena.currentCache(), 64, second);
        try {
            second.setLong(0, 0x5EC2E75EC2E75EC2L);
            assertThrows(IllegalReferenceCountException.class, () -> first.getLong(0));
            assertThrows(IllegalReferenceCountException.class, () -> first.getByte(0));
            assertThrows(IllegalReferenceCountException.class, () -> first.getBytes(0, new byte[8]));
            assertThrows(IllegalReferenceCountException.class, () -> first.setLong(0, 0));
            assertThrows(IllegalReferenceCountException.class, first::release);
            assertEquals(0x5EC2E75EC2E75EC2L, second.getLong(0));
        } finally {
            second.release();
            alloc.freeCurrentThreadCache();
        }
    }

    @Test
    void r04_pooledNeighboursNeverSeeEachOthersBytes() {
        ByteBuf a = alloc.directBuffer(16);
        ByteBuf b = alloc.directBuffer(16);
        try {
            b.writeLong(-1L).writeLong(-1L);
            a.writeZero(16);
            assertThrows(IndexOutOfBoundsException.class, () -> a.getLong(9));
            assertThrows(IndexOutOfBoundsException.class, () -> a.getBytes(0, new byte[17]));
            assertThrows(IndexOutOfBoundsException.class, () -> a.slice(8, 9));
            assertNotEquals(-1L, a.getLong(8));
        } finally {
            a.release();
            b.release();
            alloc.freeCurrentThreadCache();
        }
    }
}
