package io.rill.handler.codec.dns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.DecoderException;

class DnsTcpCodecTest {

    /** Two framed messages back to back, as a server writes them on one connection. */
    private static byte[] twoFrames() throws Exception {
        EmbeddedChannel enc = new EmbeddedChannel(new DnsTcpEncoder());
        enc.writeOutbound(DnsMessageCodecTest.everyType(), DnsMessage.query(7, DnsQuestion.in("a.example", 1), 1232));
        ByteBuf all = Unpooled.buffer();
        for (ByteBuf b; (b = enc.readOutbound()) != null; ) {
            all.writeBytes(b);
            b.release();
        }
        assertFalse(enc.finish());
        byte[] bytes = ByteBufUtil.getBytes(all);
        all.release();
        return bytes;
    }

    private static List<DnsMessage> feed(byte[] bytes, int... cuts) {
        EmbeddedChannel ch = new EmbeddedChannel(new DnsTcpFrameDecoder());
        int from = 0;
        for (int cut : cuts) {
            // Copies: the decoder may compact its cumulation in place, which must not touch the test's array.
            ch.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(bytes, from, cut)));
            from = cut;
        }
        ch.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(bytes, from, bytes.length)));
        List<DnsMessage> out = new ArrayList<>();
        for (DnsMessage m; (m = ch.readInbound()) != null; ) {
            out.add(m);
        }
        assertFalse(ch.finish());
        return out;
    }

    @Test
    void framesDecodeWholeSplitAtEveryIndexAndByteByByte() throws Exception {
        byte[] bytes = twoFrames();
        List<DnsMessage> whole = feed(bytes);
        assertEquals(2, whole.size());
        assertEquals(DnsMessageCodecTest.everyType(), whole.get(0));
        for (int i = 1; i < bytes.length; i++) {
            assertEquals(whole, feed(bytes, i), "split at " + i);
        }
        int[] every = new int[bytes.length - 1];
        for (int i = 0; i < every.length; i++) {
            every[i] = i + 1;
        }
        assertEquals(whole, feed(bytes, every));
    }

    @Test
    void aMalformedFrameOrAZeroLengthFailsWithDnsDecoderException() {
        EmbeddedChannel ch = new EmbeddedChannel(new DnsTcpFrameDecoder());
        DecoderException e = assertThrows(DecoderException.class,
                () -> ch.writeInbound(Unpooled.wrappedBuffer(DnsWire.hex("0004 0001 0100"))));
        assertInstanceOf(DnsDecoderException.class, e.getCause() != null && !(e instanceof DnsDecoderException) ? e.getCause() : e);
        EmbeddedChannel zero = new EmbeddedChannel(new DnsTcpFrameDecoder());
        DecoderException z = assertThrows(DecoderException.class, () -> zero.writeInbound(Unpooled.wrappedBuffer(new byte[] {0, 0})));
        assertTrue(String.valueOf(z.getMessage()).contains("length 0"), z.getMessage());
        ch.finishAndReleaseAll();
        zero.finishAndReleaseAll();
    }

    @Test
    void dns_08_nothingAfterAMalformedFrameIsDecoded() throws Exception {
        // A frame of 12 header octets plus one stray octet, then a well-formed frame: found by fuzzing.
        byte[] bad = DnsWire.hex("000d 0001 8180 0000 0000 0000 0000 00");
        byte[] good = DnsWire.encode(DnsMessage.query(9, DnsQuestion.in("a.example", 1), 0));
        byte[] stream = new byte[bad.length + 2 + good.length];
        System.arraycopy(bad, 0, stream, 0, bad.length);
        stream[bad.length] = 0;
        stream[bad.length + 1] = (byte) good.length;
        System.arraycopy(good, 0, stream, bad.length + 2, good.length);
        for (int split = 1; split < stream.length; split++) {
            EmbeddedChannel ch = new EmbeddedChannel(new DnsTcpFrameDecoder());
            int errors = 0;
            for (byte[] piece : List.of(Arrays.copyOfRange(stream, 0, split), Arrays.copyOfRange(stream, split, stream.length))) {
                try {
                    ch.writeInbound(Unpooled.wrappedBuffer(piece));
                } catch (DecoderException e) {
                    errors++;
                }
            }
            assertEquals(1, errors, "split at " + split);
            assertNull(ch.readInbound(), "the frame after the bad one is dropped, split at " + split);
            assertFalse(ch.finishAndReleaseAll());
        }
    }
}
