package io.rill.buffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Composite-specific operations and ByteBufUtil. */
class CompositeAndUtilTest {

    private static CompositeByteBuf abc() {
        CompositeByteBuf c = Unpooled.compositeBuffer(8);
        c.addComponent(true, Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
        c.addComponent(true, Unpooled.directBuffer(4).writeBytes(new byte[] {4, 5, 6, 7}));
        c.addComponent(true, Unpooled.wrappedBuffer(new byte[] {8, 9}));
        return c;
    }

    @Test
    void theEmptyBufferSurvivesAnyNumberOfReleases() {
        for (int i = 0; i < 3_000_000; i++) {
            Unpooled.EMPTY_BUFFER.release();
        }
        Unpooled.EMPTY_BUFFER.retain().release(5);
        assertEquals(1, Unpooled.EMPTY_BUFFER.refCnt());
        assertEquals(0, Unpooled.EMPTY_BUFFER.readableBytes());
        ByteBuf copy = Unpooled.EMPTY_BUFFER.copy();
        assertEquals(0, copy.capacity());
        assertTrue(copy.release());
    }

    @Test
    void aConstantBufferIsAReadOnlyCopyThatIsNeverFreed() {
        byte[] bytes = "Hello".getBytes(StandardCharsets.US_ASCII);
        ByteBuf constant = Unpooled.constantBuffer(bytes);
        bytes[0] = 'J'; // a copy: the caller's array is not shared
        for (int i = 0; i < 1_000; i++) {
            assertFalse(constant.release());
        }
        ByteBuf slice = constant.retainedSlice(1, 3);
        assertTrue(slice.release());
        assertEquals(1, constant.refCnt());
        assertTrue(constant.isReadOnly());
        assertThrows(java.nio.ReadOnlyBufferException.class, () -> constant.setByte(0, 'X'));
        assertEquals("Hello", constant.toString(StandardCharsets.US_ASCII));
        assertEquals(Unpooled.EMPTY_BUFFER, Unpooled.constantBuffer(new byte[0]));
    }

    @Test
    void valuesSpanningComponentEdgesReadAndWriteCorrectly() {
        CompositeByteBuf c = abc();
        assertEquals(3, c.numComponents());
        assertEquals(0x02030405, c.getInt(1));
        assertEquals(0x0203040506070809L, c.getLong(1));
        assertEquals(0x0908070605040302L, c.getLongLE(1));
        c.setInt(2, 0xa1a2a3a4);
        assertEquals(0xa1a2a3a4, c.getInt(2));
        assertEquals((byte) 0xa1, c.component(0).getByte(2));
        assertThrows(IndexOutOfBoundsException.class, () -> c.getLong(2));
        c.release();
    }

    @Test
    void componentsCanBeInsertedRemovedAndFound() {
        CompositeByteBuf c = abc();
        assertEquals(1, c.toComponentIndex(3));
        assertEquals(7, c.toByteIndex(2));
        c.addComponent(1, Unpooled.wrappedBuffer(new byte[] {42}));
        assertEquals(42, c.getByte(3));
        assertEquals(4, c.getByte(4));
        c.removeComponent(1);
        assertEquals(4, c.getByte(3));
        assertEquals(9, c.capacity());
        List<ByteBuf> parts = c.decompose(2, 6);
        assertEquals(3, parts.size());
        assertEquals(1, parts.get(0).readableBytes());
        assertEquals(1, parts.get(2).readableBytes());
        assertThrows(IndexOutOfBoundsException.class, () -> c.removeComponent(3));
        c.release();
    }

    @Test
    void tooManyComponentsAreConsolidatedIntoOne() {
        CompositeByteBuf c = Unpooled.compositeBuffer(4);
        for (int i = 0; i < 5; i++) {
            c.addComponent(true, Unpooled.wrappedBuffer(new byte[] {(byte) i}));
        }
        assertEquals(1, c.numComponents());
        assertArrayEquals(new byte[] {0, 1, 2, 3, 4}, ByteBufUtil.getBytes(c));
        c.release();
    }

    @Test
    void discardReadBytesDropsComponentsWithoutCopying() {
        CompositeByteBuf c = abc();
        c.skipBytes(4).discardReadBytes();
        assertEquals(2, c.numComponents());
        assertArrayEquals(new byte[] {5, 6, 7, 8, 9}, ByteBufUtil.getBytes(c));
        c.release();
    }

    @Test
    void releasingTheCompositeReleasesItsComponents() {
        ByteBuf part = Unpooled.buffer(4).writeInt(1);
        CompositeByteBuf c = Unpooled.compositeBuffer();
        c.addComponent(true, part);
        assertTrue(c.release());
        assertEquals(0, part.refCnt());
    }

    @Test
    void hexDumpsRoundTrip() {
        ByteBuf buf = Unpooled.wrappedBuffer(new byte[] {0, 0x7f, (byte) 0x80, (byte) 0xff});
        assertEquals("007f80ff", ByteBufUtil.hexDump(buf));
        assertArrayEquals(ByteBufUtil.getBytes(buf), ByteBufUtil.decodeHexDump("007F80ff"));
        assertThrows(IllegalArgumentException.class, () -> ByteBufUtil.decodeHexDump("0g"));
        String pretty = ByteBufUtil.prettyHexDump(buf);
        assertTrue(pretty.contains("|00000000| 00 7f 80 ff"), pretty);
        buf.release();
    }

    @Test
    void utf8ValidationFollowsRfc3629() {
        assertTrue(valid("héllo ✓ 𝄞".getBytes(StandardCharsets.UTF_8)));
        assertFalse(valid(new byte[] {(byte) 0xc0, (byte) 0x80}), "overlong NUL");
        assertFalse(valid(new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80}), "surrogate");
        assertFalse(valid(new byte[] {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80}), "above U+10FFFF");
        assertFalse(valid(new byte[] {(byte) 0xe2, (byte) 0x82}), "truncated");
        assertFalse(valid(new byte[] {(byte) 0x80}), "lone continuation");
    }

    private static boolean valid(byte[] bytes) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            return ByteBufUtil.isValidUtf8(buf) && ByteBufUtil.isText(buf, StandardCharsets.UTF_8);
        } finally {
            buf.release();
        }
    }

    @Test
    void searchAndCompareWorkAcrossKinds() {
        ByteBuf hay = Unpooled.copiedBuffer("GET /index.html HTTP/1.1", StandardCharsets.US_ASCII);
        ByteBuf needle = Unpooled.directBuffer(8);
        needle.writeCharSequence("HTTP", StandardCharsets.US_ASCII);
        assertEquals(16, ByteBufUtil.indexOf(needle, hay));
        assertEquals(4, ByteBufUtil.utf8Bytes("𝄞"));
        ByteBuf out = Unpooled.buffer(1);
        assertEquals(5, ByteBufUtil.reserveAndWriteUtf8(out, "héll", 12));
        assertEquals("héll", out.toString(StandardCharsets.UTF_8));
        hay.release();
        needle.release();
        out.release();
    }

    @Test
    void referenceCountUtilIgnoresPlainObjects() {
        assertEquals(-1, ReferenceCountUtil.refCnt("x"));
        assertFalse(ReferenceCountUtil.release("x"));
        ByteBuf buf = Unpooled.buffer(1);
        assertTrue(ReferenceCountUtil.release(buf));
        ReferenceCountUtil.safeRelease(buf); // logs, does not throw
    }

    @Test
    void streamsReadAndWriteThroughTheBuffer() throws Exception {
        ByteBuf buf = Unpooled.buffer(2);
        try (ByteBufOutputStream out = new ByteBufOutputStream(buf)) {
            out.write(new byte[] {1, 2, 3});
            out.writeUtf8("é");
        }
        try (ByteBufInputStream in = new ByteBufInputStream(buf, true)) {
            assertEquals(5, in.available());
            assertEquals(1, in.read());
            assertEquals(4, in.read(new byte[10], 0, 10));
            assertEquals(-1, in.read());
        }
        assertEquals(0, buf.refCnt());
    }

    @Test
    void onlyABufferWithItsOwnMemoryAndOneReferenceIsExclusive() {
        ByteBuf pooled = PooledByteBufAllocator.DEFAULT.directBuffer(16).writeLong(1);
        ByteBuf heap = Unpooled.buffer(16);
        assertTrue(ByteBufUtil.isExclusive(pooled));
        assertTrue(ByteBufUtil.isExclusive(heap));

        ByteBuf view = pooled.retainedSlice(0, 4);
        assertFalse(ByteBufUtil.isExclusive(pooled), "a retained view can still see the bytes");
        assertFalse(ByteBufUtil.isExclusive(view), "a view shares its memory");
        view.release();
        assertTrue(ByteBufUtil.isExclusive(pooled));

        pooled.retain();
        assertFalse(ByteBufUtil.isExclusive(pooled));
        pooled.release();
        assertFalse(ByteBufUtil.isExclusive(pooled.asReadOnly()));
        assertFalse(ByteBufUtil.isExclusive(pooled.duplicate()));
        CompositeByteBuf composite = abc();
        assertFalse(ByteBufUtil.isExclusive(composite));
        composite.release();
        assertTrue(pooled.release());
        assertFalse(ByteBufUtil.isExclusive(pooled), "released");
        assertTrue(heap.release());
    }
}
