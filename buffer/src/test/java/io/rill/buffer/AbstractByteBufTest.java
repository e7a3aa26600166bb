package io.rill.buffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rill.util.AsciiString;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract every buffer kind keeps. A subclass says how to make its kind; every buffer a
 * test creates goes through {@link #track} and is released after the test (tests that release
 * on purpose use {@link #untracked}).
 */
abstract class AbstractByteBufTest {

    private final List<ByteBuf> created = new ArrayList<>();

    /** An empty buffer of this kind, {@code writerIndex == 0}. Kinds that cannot grow ignore maxCapacity. */
    abstract ByteBuf newBuffer(int capacity, int maxCapacity);

    /** False for read-only views: write tests are skipped. */
    boolean writableKind() {
        return true;
    }

    /** False for composites, whose discardReadBytes gives up the discarded bytes' capacity instead of copying. */
    boolean discardKeepsCapacity() {
        return true;
    }

    /** False for kinds with a fixed capacity (slices). */
    boolean growableKind() {
        return true;
    }

    /** A buffer of this kind whose readable bytes are {@code content}. */
    ByteBuf filled(byte[] content) {
        return track(untrackedFilled(content));
    }

    ByteBuf untrackedFilled(byte[] content) {
        ByteBuf buf = newBuffer(content.length, Integer.MAX_VALUE);
        return buf.writeBytes(content);
    }

    ByteBuf buffer(int capacity) {
        return track(newBuffer(capacity, Integer.MAX_VALUE));
    }

    ByteBuf track(ByteBuf buf) {
        created.add(buf);
        return buf;
    }

    ByteBuf untracked(int capacity) {
        return newBuffer(capacity, Integer.MAX_VALUE);
    }

    @AfterEach
    void releaseEverything() {
        for (ByteBuf buf : created) {
            if (buf.refCnt() > 0) {
                buf.release(buf.refCnt());
            }
        }
    }

    static byte[] pattern(int length) {
        byte[] bytes = new byte[length];
        new Random(length).nextBytes(bytes);
        return bytes;
    }

    void assumeWritable() {
        assumeTrue(writableKind(), "read-only kind");
    }

    // ------------------------------------------------------------------ indexes

    @Test
    void startsWithBothIndexesAtZeroAndCountOne() {
        ByteBuf buf = filled(new byte[0]);
        assertEquals(0, buf.readerIndex());
        assertEquals(0, buf.writerIndex());
        assertEquals(1, buf.refCnt());
        assertFalse(buf.isReadable());
    }

    @Test
    void readerIndexCannotPassWriterIndex() {
        ByteBuf buf = filled(pattern(8));
        buf.readerIndex(8);
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> buf.readerIndex(9));
        assertEquals("readerIndex 9 is outside [0, writerIndex 8]", e.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> buf.readerIndex(-1));
    }

    @Test
    void writerIndexCannotPassCapacityOrFallBelowReaderIndex() {
        ByteBuf buf = filled(pattern(8));
        buf.readerIndex(4);
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> buf.writerIndex(3));
        assertEquals("writerIndex 3 is outside [readerIndex 4, capacity " + buf.capacity() + "]", e.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> buf.writerIndex(buf.capacity() + 1));
        e = assertThrows(IndexOutOfBoundsException.class, () -> buf.setIndex(3, 2));
        assertEquals("readerIndex 3 and writerIndex 2 break 0 <= readerIndex <= writerIndex <= capacity "
                + buf.capacity(), e.getMessage());
        buf.setIndex(0, 2);
        assertEquals(2, buf.readableBytes());
    }

    @Test
    void aCopyThatDoesNotFitNamesTheLengthAndTheRoomThereIs() {
        ByteBuf buf = filled(pattern(8));
        ByteBuf small = track(Unpooled.buffer(2, 2));
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> buf.getBytes(0, small, 4));
        assertTrue(e.getMessage().startsWith("cannot copy 4 bytes into dst: it has room for 2"), e.getMessage());
        e = assertThrows(IndexOutOfBoundsException.class, () -> buf.readBytes(small, 3));
        assertTrue(e.getMessage().startsWith("cannot copy 3 bytes into dst: it has room for 2"), e.getMessage());
        ByteBuf two = track(Unpooled.buffer(2).writeShort(1));
        if (writableKind()) {
            e = assertThrows(IndexOutOfBoundsException.class, () -> buf.setBytes(0, two, 3));
            assertTrue(e.getMessage().startsWith("cannot copy 3 bytes from src: it has 2 readable"), e.getMessage());
        }
    }

    @Test
    void clearResetsIndexesButKeepsBytes() {
        byte[] content = pattern(16);
        ByteBuf buf = filled(content);
        buf.skipBytes(3).clear();
        assertEquals(0, buf.readerIndex());
        assertEquals(0, buf.writerIndex());
        assertEquals(content[5], buf.getByte(5));
    }

    // ------------------------------------------------------------------ primitives

    @Test
    void everyPrimitiveRoundTripsInBothByteOrders() {
        assumeWritable();
        ByteBuf buf = buffer(64);
        buf.writeBoolean(true).writeByte(0x81).writeShort(0x8182).writeShortLE(0x8182)
           .writeMedium(0x818283).writeMediumLE(0x818283).writeInt(0x81828384).writeIntLE(0x81828384)
           .writeLong(0x8182838485868788L).writeLongLE(0x8182838485868788L).writeChar('é').writeCharLE('ß')
           .writeFloat(1.5f).writeFloatLE(-2.25f).writeDouble(Math.PI).writeDoubleLE(-Math.E);
        assertTrue(buf.readBoolean());
        assertEquals((byte) 0x81, buf.readByte());
        assertEquals((short) 0x8182, buf.readShort());
        assertEquals((short) 0x8182, buf.readShortLE());
        assertEquals(0xff818283, buf.readMedium());
        assertEquals(0x818283, buf.readUnsignedMediumLE());
        assertEquals(0x81828384, buf.readInt());
        assertEquals(0x81828384L, buf.readUnsignedIntLE());
        assertEquals(0x8182838485868788L, buf.readLong());
        assertEquals(0x8182838485868788L, buf.readLongLE());
        assertEquals('é', buf.readChar());
        assertEquals('ß', buf.readCharLE());
        assertEquals(1.5f, buf.readFloat());
        assertEquals(-2.25f, buf.readFloatLE());
        assertEquals(Math.PI, buf.readDouble());
        assertEquals(-Math.E, buf.readDoubleLE());
        assertFalse(buf.isReadable());
    }

    @Test
    void bigEndianAndLittleEndianLayoutsAreAsSpecified() {
        ByteBuf buf = filled(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        assertEquals(0x0102, buf.getShort(0));
        assertEquals(0x0201, buf.getShortLE(0));
        assertEquals(0x010203, buf.getMedium(0));
        assertEquals(0x030201, buf.getMediumLE(0));
        assertEquals(0x01020304, buf.getInt(0));
        assertEquals(0x04030201, buf.getIntLE(0));
        assertEquals(0x0102030405060708L, buf.getLong(0));
        assertEquals(0x0807060504030201L, buf.getLongLE(0));
    }

    @Test
    void unsignedGettersNeverSignExtend() {
        ByteBuf buf = filled(new byte[] {-1, -1, -1, -1});
        assertEquals(255, buf.getUnsignedByte(0));
        assertEquals(0xffff, buf.getUnsignedShort(0));
        assertEquals(0xffff, buf.getUnsignedShortLE(0));
        assertEquals(0xffffff, buf.getUnsignedMedium(0));
        assertEquals(-1, buf.getMedium(1));
        assertEquals(0xffffffffL, buf.getUnsignedInt(0));
    }

    @Test
    void multiByteValuesAtEveryOffsetRoundTrip() {
        assumeWritable();
        ByteBuf buf = buffer(40);
        buf.writeZero(40);
        for (int i = 0; i <= 32; i++) {
            buf.setLong(i, 0x1122334455667788L + i);
            assertEquals(0x1122334455667788L + i, buf.getLong(i));
            buf.setIntLE(i, i * 31);
            assertEquals(i * 31, buf.getIntLE(i));
        }
    }

    // ------------------------------------------------------------------ bounds

    @Test
    void outOfBoundsAccessNamesIndexLengthAndCapacity() {
        ByteBuf buf = filled(pattern(12));
        int cap = buf.capacity();
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> buf.getInt(cap - 2));
        assertEquals("index " + (cap - 2) + " and length 4 do not fit in [0, " + cap + ")", e.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> buf.getByte(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> buf.getLong(cap));
    }

    @Test
    void overflowingIndexPlusLengthIsOutOfBoundsNotWrapped() {
        ByteBuf buf = filled(pattern(16));
        byte[] dst = new byte[4];
        assertThrows(IndexOutOfBoundsException.class, () -> buf.getBytes(Integer.MAX_VALUE, dst, 0, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> buf.getBytes(2, dst, 0, -1));
        assertThrows(IndexOutOfBoundsException.class, () -> buf.getBytes(0, dst, Integer.MAX_VALUE, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> buf.getShort(Integer.MAX_VALUE));
        assertThrows(IndexOutOfBoundsException.class, () -> buf.slice(8, Integer.MAX_VALUE));
    }

    @Test
    void theWorkedExampleInByteBufsJavadocHolds() {
        assumeTrue(writableKind());
        ByteBuf buf = buffer(8);
        assertIndexes(buf, 0, 0, 8);
        buf.writeInt(0x0A0B0C0D);
        assertIndexes(buf, 0, 4, 4);
        buf.writeShort(0x0E0F);
        assertIndexes(buf, 0, 6, 2);
        assertEquals(0x0A, buf.readByte());
        assertIndexes(buf, 1, 6, 2);
        assertEquals(0x0F, buf.getByte(5));
        assertIndexes(buf, 1, 6, 2);
        buf.discardReadBytes();
        assertIndexes(buf, 0, 5, discardKeepsCapacity() ? 3 : 2);
        assertEquals("0b0c0d0e0f", ByteBufUtil.hexDump(buf));
        buf.clear();
        assertIndexes(buf, 0, 0, discardKeepsCapacity() ? 8 : 7);
    }

    private static void assertIndexes(ByteBuf buf, int reader, int writer, int writable) {
        assertEquals(List.of(reader, writer, writer - reader, writable),
                List.of(buf.readerIndex(), buf.writerIndex(), buf.readableBytes(), buf.writableBytes()));
    }

    // docs/security-cases.md, case R-04: out-of-range accessors throw IndexOutOfBoundsException,
    // whatever the arithmetic of index + length does, and never return or change bytes outside the
    // buffer.

    @Test
    void r04_getWithOverflowingIndexPlusLengthThrows() {
        byte[] content = pattern(16);
        ByteBuf buf = filled(content);
        int[] bad = {Integer.MAX_VALUE, Integer.MAX_VALUE - 1, Integer.MAX_VALUE - 3, Integer.MAX_VALUE - 7,
                Integer.MIN_VALUE, -1, -8};
        ByteBuf dst = track(Unpooled.buffer(2));
        for (int index : bad) {
            assertOutOfBounds(() -> buf.getByte(index));
            assertOutOfBounds(() -> buf.getShort(index));
            assertOutOfBounds(() -> buf.getUnsignedMediumLE(index));
            assertOutOfBounds(() -> buf.getInt(index));
            assertOutOfBounds(() -> buf.getLong(index));
            assertOutOfBounds(() -> buf.getLongLE(index));
            assertOutOfBounds(() -> buf.getBytes(index, new byte[2], 0, 2));
            assertOutOfBounds(() -> buf.getBytes(index, ByteBuffer.allocate(2)));
            assertOutOfBounds(() -> buf.getBytes(index, dst, 0, 2));
            assertOutOfBounds(() -> buf.forEachByte(index, 2, b -> true));
            assertOutOfBounds(() -> buf.nioBuffer(index, 2));
            assertOutOfBounds(() -> buf.copy(index, 2));
            assertOutOfBounds(() -> buf.slice(index, 2));
            if (writableKind()) {
                assertOutOfBounds(() -> buf.setLong(index, -1L));
                assertOutOfBounds(() -> buf.setInt(index, -1));
                assertOutOfBounds(() -> buf.setBytes(index, new byte[2], 0, 2));
                assertOutOfBounds(() -> buf.setZero(index, 2));
            }
        }
        assertArrayEquals(content, ByteBufUtil.getBytes(buf));
    }

    @Test
    void r04_negativeLengthsThrow() {
        ByteBuf buf = filled(pattern(16));
        byte[] array = new byte[16];
        ByteBuf dst = track(Unpooled.buffer(16));
        for (int length : new int[] {-1, -8, Integer.MIN_VALUE}) {
            assertOutOfBounds(() -> buf.getBytes(4, array, 0, length));
            assertOutOfBounds(() -> buf.getBytes(4, dst, 0, length));
            assertOutOfBounds(() -> buf.forEachByte(4, length, b -> true));
            assertOutOfBounds(() -> buf.nioBuffer(4, length));
            assertOutOfBounds(() -> buf.copy(4, length));
            assertOutOfBounds(() -> buf.slice(4, length));
            assertOutOfBounds(() -> buf.readBytes(length));
            assertOutOfBounds(() -> buf.skipBytes(length));
            if (writableKind()) {
                assertOutOfBounds(() -> buf.setBytes(4, array, 0, length));
                assertOutOfBounds(() -> buf.setZero(4, length));
            }
        }
        assertEquals(0, buf.readerIndex());
    }

    @Test
    void r04_everyPrimitiveReachesTheLastByteAndNoFurther() {
        byte[] content = pattern(24);
        ByteBuf buf = filled(content);
        int cap = buf.capacity();
        ByteBuf expected = track(Unpooled.wrappedBuffer(content));
        for (int size : new int[] {1, 2, 3, 4, 8}) {
            int last = cap - size;
            assertEquals(read(expected, last, size), read(buf, last, size), "size " + size);
            for (int index = last + 1; index <= cap + 8; index++) {
                int i = index;
                assertOutOfBounds(() -> read(buf, i, size));
            }
        }
    }

    private static long read(ByteBuf buf, int index, int size) {
        switch (size) {
            case 1: return buf.getByte(index);
            case 2: return buf.getShort(index);
            case 3: return buf.getUnsignedMedium(index);
            case 4: return buf.getInt(index);
            default: return buf.getLong(index);
        }
    }

    private static void assertOutOfBounds(org.junit.jupiter.api.function.Executable access) {
        assertThrows(IndexOutOfBoundsException.class, access);
    }

    @Test
    void r04_doubleReleaseThrows() {
        ByteBuf buf = untrackedFilled(pattern(8));
        assertTrue(buf.release());
        assertThrows(IllegalReferenceCountException.class, buf::release);
        assertThrows(IllegalReferenceCountException.class, () -> buf.release(1));
        assertEquals(0, buf.refCnt());
    }

    @Test
    void r04_readAfterReleaseFails() {
        ByteBuf buf = untrackedFilled(pattern(16));
        buf.release();
        assertThrows(IllegalReferenceCountException.class, () -> buf.getByte(0));
        assertThrows(IllegalReferenceCountException.class, () -> buf.getShortLE(2));
        assertThrows(IllegalReferenceCountException.class, () -> buf.getLong(8));
        assertThrows(IllegalReferenceCountException.class, () -> buf.getBytes(0, new byte[16]));
        assertThrows(IllegalReferenceCountException.class, () -> buf.getBytes(0, new byte[0], 0, 0));
        assertThrows(IllegalReferenceCountException.class, () -> buf.getBytes(0, ByteBuffer.allocate(4)));
        assertThrows(IllegalReferenceCountException.class, () -> buf.forEachByte(b -> true));
        assertThrows(IllegalReferenceCountException.class, () -> buf.nioBuffer(0, 4));
        assertThrows(IllegalReferenceCountException.class, () -> buf.ioView(0, 4, 0));
        assertThrows(IllegalReferenceCountException.class, buf::readLong);
        assertThrows(IllegalReferenceCountException.class, () -> buf.copy(0, 4));
        // Out of range and released: the release is what the caller needs to hear about.
        assertThrows(IllegalReferenceCountException.class, () -> buf.getLong(Integer.MAX_VALUE - 3));
        if (writableKind()) {
            assertThrows(IllegalReferenceCountException.class, () -> buf.setLong(0, 1L));
            assertThrows(IllegalReferenceCountException.class, () -> buf.setBytes(0, new byte[4]));
            assertThrows(IllegalReferenceCountException.class, () -> buf.writeByte(1));
        }
    }

    @Test
    void readingPastWriterIndexThrowsAndMovesNothing() {
        ByteBuf buf = filled(pattern(3));
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, buf::readInt);
        assertTrue(e.getMessage().startsWith("cannot read 4 bytes: 3 readable between readerIndex 0 and writerIndex 3"),
                e.getMessage());
        assertEquals(0, buf.readerIndex());
        assertThrows(IndexOutOfBoundsException.class, () -> buf.skipBytes(4));
        assertThrows(IndexOutOfBoundsException.class, () -> buf.readBytes(new byte[4]));
    }

    // ------------------------------------------------------------------ growth

    @Test
    void writesGrowTheCapacityUpToMaxCapacity() {
        assumeWritable();
        assumeTrue(growableKind());
        ByteBuf buf = track(newBuffer(4, 100));
        byte[] content = pattern(100);
        buf.writeBytes(content);
        assertEquals(100, buf.writerIndex());
        assertTrue(buf.capacity() >= 100);
        assertArrayEquals(content, ByteBufUtil.getBytes(buf));
    }

    @Test
    void growingPastMaxCapacityNamesBothAndChangesNothing() {
        assumeWritable();
        assumeTrue(growableKind());
        ByteBuf buf = track(newBuffer(4, 8));
        if (buf.maxCapacity() != 8) {
            return; // composites have no maximum below Integer.MAX_VALUE
        }
        buf.writeInt(1);
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> buf.writeBytes(new byte[5]));
        assertTrue(e.getMessage().startsWith("cannot write 5 bytes at writerIndex 4: maxCapacity 8 leaves room for 4"),
                e.getMessage());
        assertEquals(4, buf.writerIndex());
        assertEquals(1, buf.ensureWritable(5, false));
        assertEquals(3, buf.ensureWritable(5, true));
        assertEquals(8, buf.capacity());
        assertEquals(0, buf.ensureWritable(4, false));
    }

    @Test
    void capacityCanShrinkAndIndexesFollow() {
        assumeWritable();
        assumeTrue(growableKind());
        ByteBuf buf = buffer(16);
        buf.writeBytes(pattern(16)).readerIndex(12);
        buf.capacity(10);
        assertEquals(10, buf.capacity());
        assertEquals(10, buf.writerIndex());
        assertEquals(10, buf.readerIndex());
        buf.capacity(64);
        assertEquals(64, buf.capacity());
    }

    @Test
    void discardReadBytesMovesReadableBytesToTheFront() {
        assumeWritable();
        byte[] content = pattern(32);
        ByteBuf buf = filled(content);
        buf.skipBytes(10);
        buf.discardReadBytes();
        assertEquals(0, buf.readerIndex());
        assertEquals(22, buf.writerIndex());
        for (int i = 0; i < 22; i++) {
            assertEquals(content[10 + i], buf.getByte(i), "byte " + i);
        }
    }

    @Test
    void discardSomeReadBytesOnlyCopiesWhenWorthIt() {
        assumeWritable();
        ByteBuf buf = filled(pattern(64));
        buf.skipBytes(1).discardSomeReadBytes();
        assertEquals(1, buf.readerIndex());
        buf.skipBytes(63).discardSomeReadBytes();
        assertEquals(0, buf.readerIndex());
        assertEquals(0, buf.writerIndex());
    }

    // ------------------------------------------------------------------ bulk

    @Test
    void bulkCopiesToAndFromArraysAndByteBuffers() {
        assumeWritable();
        byte[] content = pattern(100);
        ByteBuf buf = buffer(100);
        buf.writeBytes(content, 0, 50).writeBytes(ByteBuffer.wrap(content, 50, 50));
        byte[] out = new byte[100];
        buf.getBytes(0, out, 0, 30);
        ByteBuffer nio = ByteBuffer.allocateDirect(70);
        buf.getBytes(30, nio);
        nio.flip().get(out, 30, 70);
        assertArrayEquals(content, out);
    }

    @Test
    void bulkCopiesBetweenBuffersOfEveryKind() {
        byte[] content = pattern(77);
        ByteBuf src = filled(content);
        for (ByteBuf dst : new ByteBuf[] {track(Unpooled.buffer(10)), track(Unpooled.directBuffer(10)),
                track(Unpooled.wrappedBuffer(new byte[3], new byte[4]).clear())}) {
            dst.writeBytes(src, src.readerIndex(), src.readableBytes());
            assertArrayEquals(content, ByteBufUtil.getBytes(dst));
            ByteBuf back = buffer(content.length);
            if (writableKind()) {
                back.writeBytes(dst);
                assertArrayEquals(content, ByteBufUtil.getBytes(back));
            }
        }
    }

    @Test
    void streamsAndChannelsMoveTheRightBytes(@TempDir Path dir) throws IOException {
        byte[] content = pattern(3000);
        ByteBuf buf = filled(content);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        buf.getBytes(0, out, 3000);
        assertArrayEquals(content, out.toByteArray());
        Path file = dir.resolve("f");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.READ)) {
            assertEquals(3000, buf.getBytes(0, ch, 10, 3000));
            assertEquals(0, ch.position());
            if (writableKind()) {
                ByteBuf in = buffer(3000);
                assertEquals(3000, in.writeBytes(ch, 10, 3000));
                assertArrayEquals(content, ByteBufUtil.getBytes(in));
            }
        }
        assertArrayEquals(content, java.util.Arrays.copyOfRange(Files.readAllBytes(file), 10, 3010));
        try (FileChannel ch = FileChannel.open(dir.resolve("g"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            assertEquals(3000, buf.readBytes((java.nio.channels.GatheringByteChannel) ch, 3000));
        }
        assertArrayEquals(content, Files.readAllBytes(dir.resolve("g")));
        assertFalse(buf.isReadable());
        if (writableKind()) {
            ByteBuf in = buffer(3000);
            assertEquals(-1, in.writeBytes(new ByteArrayInputStream(new byte[0]), 10));
            assertEquals(3000, in.writeBytes(new ByteArrayInputStream(content), 3000));
            assertArrayEquals(content, ByteBufUtil.getBytes(in));
        }
    }

    @Test
    void setZeroAndWriteZeroClearBytes() {
        assumeWritable();
        ByteBuf buf = buffer(32);
        buf.writeBytes(pattern(20)).writeZero(12);
        buf.setZero(3, 17);
        for (int i = 3; i < 32; i++) {
            assertEquals(0, buf.getByte(i));
        }
    }

    // ------------------------------------------------------------------ text

    @Test
    void charSequencesRoundTripInUtf8AsciiAndLatin1() {
        assumeWritable();
        ByteBuf buf = buffer(64);
        String text = "héllo ✓ 𝄞";
        int n = buf.writeCharSequence(text, StandardCharsets.UTF_8);
        assertEquals(text.getBytes(StandardCharsets.UTF_8).length, n);
        assertEquals(ByteBufUtil.utf8Bytes(text), n);
        assertEquals(text, buf.readCharSequence(n, StandardCharsets.UTF_8).toString());
        buf.writeCharSequence("plain", StandardCharsets.US_ASCII);
        CharSequence ascii = buf.readCharSequence(5, StandardCharsets.US_ASCII);
        assertInstanceOf(AsciiString.class, ascii);
        assertEquals("plain", ascii.toString());
        buf.writeCharSequence("ÿé", StandardCharsets.ISO_8859_1);
        assertEquals("ÿé", buf.toString(buf.readerIndex(), 2, StandardCharsets.ISO_8859_1));
    }

    @Test
    void unpairedSurrogatesBecomeQuestionMarks() {
        assumeWritable();
        ByteBuf buf = buffer(8);
        buf.writeCharSequence("a\ud800b", StandardCharsets.UTF_8);
        assertEquals("a?b", buf.toString(StandardCharsets.UTF_8));
    }

    // ------------------------------------------------------------------ search

    @Test
    void indexOfSearchesForwardAndBackward() {
        ByteBuf buf = filled("abcabc".getBytes(StandardCharsets.US_ASCII));
        assertEquals(1, buf.indexOf(0, 6, (byte) 'b'));
        assertEquals(4, buf.indexOf(6, 0, (byte) 'b'));
        assertEquals(-1, buf.indexOf(0, 6, (byte) 'z'));
        assertEquals(-1, buf.indexOf(2, 2, (byte) 'c'));
        assertEquals(2, buf.bytesBefore((byte) 'c'));
        buf.skipBytes(3);
        assertEquals(2, buf.bytesBefore((byte) 'c'));
        assertEquals(-1, buf.bytesBefore(1, (byte) 'c'));
    }

    @Test
    void forEachByteStopsWhereTheProcessorSaysSo() {
        ByteBuf buf = filled("GET /\r\nx\0".getBytes(StandardCharsets.US_ASCII));
        assertEquals(5, buf.forEachByte(ByteProcessor.FIND_CRLF));
        assertEquals(6, buf.forEachByte(ByteProcessor.FIND_LF));
        assertEquals(8, buf.forEachByte(ByteProcessor.FIND_NUL));
        assertEquals(3, buf.forEachByte(ByteProcessor.FIND_ASCII_SPACE));
        assertEquals(8, buf.forEachByteDesc(ByteProcessor.FIND_NUL));
        assertEquals(7, buf.forEachByteDesc(ByteProcessor.FIND_NON_NUL));
        assertEquals(-1, buf.forEachByte(b -> true));
        List<Byte> seen = new ArrayList<>();
        buf.forEachByteDesc(2, 3, b -> seen.add(b));
        assertEquals(List.of((byte) '/', (byte) ' ', (byte) 'T'), seen);
    }

    // ------------------------------------------------------------------ views

    @Test
    void slicesShareBytesAndCountButNotIndexes() {
        byte[] content = pattern(20);
        ByteBuf buf = filled(content);
        ByteBuf slice = buf.slice(5, 10);
        assertEquals(0, slice.readerIndex());
        assertEquals(10, slice.writerIndex());
        assertEquals(10, slice.capacity());
        assertEquals(content[5], slice.getByte(0));
        assertThrows(IndexOutOfBoundsException.class, () -> slice.getByte(10));
        slice.retain();
        assertEquals(2, buf.refCnt());
        slice.release();
        assertEquals(1, buf.refCnt());
        ByteBuf sliceOfSlice = slice.slice(2, 3);
        assertEquals(content[7], sliceOfSlice.getByte(0));
        if (writableKind()) {
            sliceOfSlice.setByte(0, 42);
            assertEquals(42, buf.getByte(7));
        }
    }

    @Test
    void retainedSlicesHaveTheirOwnCountAndReleaseTheParentOnce() {
        ByteBuf buf = track(untrackedFilled(pattern(16)));
        ByteBuf slice = buf.retainedSlice(2, 4);
        assertEquals(2, buf.refCnt());
        assertEquals(1, slice.refCnt());
        buf.release();
        assertEquals(1, buf.refCnt());
        ByteBuf dup = slice.retainedDuplicate();
        assertFalse(slice.release());
        assertEquals(1, buf.refCnt());
        assertTrue(dup.release());
        assertEquals(0, buf.refCnt());
        assertThrows(IllegalReferenceCountException.class, () -> buf.getByte(0));
    }

    @Test
    void readSliceAndReadRetainedSliceAdvanceTheReader() {
        ByteBuf buf = filled(pattern(10));
        ByteBuf a = buf.readSlice(3);
        ByteBuf b = buf.readRetainedSlice(3);
        assertEquals(6, buf.readerIndex());
        assertEquals(3, a.readableBytes());
        assertEquals(buf.getByte(3), b.getByte(0));
        assertTrue(b.release());
    }

    @Test
    void duplicatesShareBytesAndStartWithTheSameIndexes() {
        ByteBuf buf = filled(pattern(16));
        buf.skipBytes(4);
        ByteBuf dup = buf.duplicate();
        assertEquals(4, dup.readerIndex());
        assertEquals(16, dup.writerIndex());
        dup.skipBytes(4);
        assertEquals(4, buf.readerIndex());
        assertEquals(buf.getLong(8), dup.readLong());
    }

    @Test
    void readOnlyViewsRefuseEveryWrite() {
        ByteBuf ro = filled(pattern(16)).asReadOnly();
        assertTrue(ro.isReadOnly());
        assertFalse(ro.hasArray());
        assertThrows(ReadOnlyBufferException.class, () -> ro.setByte(0, 1));
        assertThrows(ReadOnlyBufferException.class, () -> ro.setLong(0, 1));
        assertThrows(ReadOnlyBufferException.class, () -> ro.setBytes(0, new byte[2]));
        int w = ro.writerIndex();
        assertThrows(ReadOnlyBufferException.class, () -> ro.writeByte(1));
        assertEquals(w, ro.writerIndex());
        assertThrows(ReadOnlyBufferException.class, () -> ro.slice().setByte(0, 1));
        assertTrue(ro.nioBuffer().isReadOnly());
        assertEquals(ro.getLong(0), ro.duplicate().getLong(0));
    }

    @Test
    void copiesAreIndependent() {
        ByteBuf buf = filled(pattern(16));
        ByteBuf copy = track(buf.copy(2, 8));
        assertEquals(8, copy.readableBytes());
        assertEquals(buf.getLong(2), copy.getLong(0));
        copy.setByte(0, ~buf.getByte(2));
        assertNotEquals(buf.getByte(2), copy.getByte(0));
    }

    @Test
    void nioBuffersExposeTheReadableBytes() {
        byte[] content = pattern(40);
        ByteBuf buf = filled(content);
        buf.skipBytes(5);
        ByteBuffer nio = buf.nioBuffer();
        assertEquals(35, nio.remaining());
        byte[] out = new byte[35];
        nio.get(out);
        assertArrayEquals(java.util.Arrays.copyOfRange(content, 5, 40), out);
        int total = 0;
        for (ByteBuffer b : buf.nioBuffers()) {
            total += b.remaining();
        }
        assertEquals(35, total);
        assertTrue(buf.nioBufferCount() >= 1);
    }

    @Test
    void ioViewsShowTheBytesAndAreReusedPerSlot() {
        byte[] content = pattern(40);
        ByteBuf a = filled(content);
        ByteBuf b = filled(content);
        ByteBuffer first = a.ioView(5, 30, 0);
        byte[] out = new byte[30];
        first.duplicate().get(out);
        assertArrayEquals(java.util.Arrays.copyOfRange(content, 5, 35), out);
        assertEquals(a.isReadOnly(), first.isReadOnly());
        ByteBuffer other = b.ioView(1, 3, 1);
        assertEquals(3, other.remaining());
        assertEquals(content[1], other.get(other.position()));
        if (a.nioBufferCount() == 1 && !a.isReadOnly()) {
            assertSame(first, a.ioView(0, 2, 0), "slot 0 is the thread's one view while the memory is the same");
            assertNotSame(first, other, "each slot is its own view");
            assertEquals(2, first.remaining());
        }
        if (writableKind() && a.nioBufferCount() == 1) {
            ByteBuffer view = a.ioView(0, 1, 0);
            view.put(view.position(), (byte) 99);
            assertEquals(99, a.getByte(0), "a view shares the buffer's memory");
        }
        assertOutOfBounds(() -> a.ioView(38, 3, 0));
        if (a.nioBufferCount() == 1 && !a.isReadOnly()) {
            assertThrows(IndexOutOfBoundsException.class, () -> a.ioView(0, 1, -1));
        }
    }

    @Test
    void arrayAccessMatchesGetters() {
        ByteBuf buf = filled(pattern(16));
        if (buf.hasArray()) {
            assertEquals(buf.getByte(3), buf.array()[buf.arrayOffset() + 3]);
        } else {
            assertThrows(RuntimeException.class, buf::array);
        }
    }

    // ------------------------------------------------------------------ identity

    @Test
    void equalContentMeansEqualHashAndCompareZero() {
        byte[] content = pattern(33);
        ByteBuf a = filled(content);
        ByteBuf b = track(Unpooled.wrappedBuffer(content.clone()));
        assertEquals(b, a);
        assertEquals(a, b);
        assertEquals(b.hashCode(), a.hashCode());
        assertEquals(0, a.compareTo(b));
        ByteBuf shorter = track(Unpooled.wrappedBuffer(content, 0, 32));
        assertTrue(a.compareTo(shorter) > 0);
        ByteBuf bigger = track(Unpooled.copiedBuffer(content));
        bigger.setByte(20, (byte) (content[20] + 1));
        assertEquals(Integer.signum(Integer.compare(content[20] & 0xff, (content[20] + 1) & 0xff)),
                Integer.signum(a.compareTo(bigger)));
    }

    @Test
    void toStringSummarisesWithoutContent() {
        ByteBuf buf = filled(pattern(4));
        assertTrue(buf.toString().contains("ridx: 0, widx: 4"), buf.toString());
    }

    // ------------------------------------------------------------------ reference counting

    @Test
    void releasedBuffersRefuseAccessAndSecondRelease() {
        ByteBuf buf = untrackedFilled(pattern(8));
        buf.retain(2);
        assertEquals(3, buf.refCnt());
        assertFalse(buf.release(2));
        assertTrue(buf.release());
        assertEquals(0, buf.refCnt());
        IllegalReferenceCountException e = assertThrows(IllegalReferenceCountException.class, buf::release);
        assertEquals("cannot release 1: the reference count is 0 (released)", e.getMessage());
        assertThrows(IllegalReferenceCountException.class, buf::retain);
        assertThrows(IllegalReferenceCountException.class, () -> buf.getInt(0));
        assertThrows(IllegalReferenceCountException.class, buf::readByte);
        assertThrows(IllegalReferenceCountException.class, buf::slice);
        assertThrows(IllegalReferenceCountException.class, buf::duplicate);
        assertTrue(buf.toString().contains("freed"));
    }

    @Test
    void releasingMoreThanTheCountThrowsAndKeepsTheCount() {
        ByteBuf buf = filled(pattern(8));
        buf.retain();
        IllegalReferenceCountException e = assertThrows(IllegalReferenceCountException.class, () -> buf.release(3));
        assertEquals("cannot release 3: the reference count is 2", e.getMessage());
        assertEquals(2, buf.refCnt());
        assertThrows(IllegalArgumentException.class, () -> buf.release(0));
        assertThrows(IllegalArgumentException.class, () -> buf.retain(-1));
        buf.release();
    }

    @Test
    void retainPastTheMaximumThrowsAndRollsBack() {
        ByteBuf buf = filled(pattern(8));
        assertThrows(IllegalReferenceCountException.class, () -> buf.retain(Integer.MAX_VALUE));
        assertEquals(1, buf.refCnt());
    }

    @Test
    void touchReturnsTheSameBuffer() {
        ByteBuf buf = filled(pattern(8));
        assertEquals(buf, buf.touch("hint").touch());
    }
}
