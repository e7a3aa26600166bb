package io.rill.handler.codec.dns;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;
import io.rill.handler.codec.DecoderException;

/**
 * Fuzz targets for DNS messages: any bytes decode or fail with a {@link DnsDecoderException} and
 * nothing else; what decodes encodes and decodes to the same message; the TCP framing gives the
 * same result in any pieces; no buffer leaks.
 */
class DnsMessageFuzzTest {

    @FuzzTest
    void decode(byte[] input) {
        FuzzLeaks.assertNoneReported();
        byte[] payload = FuzzInput.payload(input);
        DnsMessage m;
        try {
            m = DnsWire.decode(payload);
        } catch (DnsDecoderException expected) {
            return;
        }
        DnsMessage again;
        try {
            again = DnsWire.decode(DnsWire.encode(m));
        } catch (IllegalArgumentException tooBigToReencode) {
            return; // e.g. an RDATA that compression made fit and plain form would not
        }
        assertEquals(m, again, "decode, encode, decode");
    }

    @FuzzTest
    void tcpFrames(byte[] input) {
        FuzzLeaks.assertNoneReported();
        assertEquals(run(List.of(FuzzInput.payload(input))), run(FuzzInput.pieces(input)), "whole and in pieces");
    }

    /** The messages the TCP decoder gives for {@code pieces}, then the error's type if one ended it. */
    private static List<Object> run(List<byte[]> pieces) {
        EmbeddedChannel ch = new EmbeddedChannel(new DnsTcpFrameDecoder());
        List<Object> out = new ArrayList<>();
        try {
            for (byte[] piece : pieces) {
                ch.writeInbound(Unpooled.wrappedBuffer(piece));
                for (Object m; (m = ch.readInbound()) != null; ) {
                    out.add(m);
                }
            }
        } catch (DecoderException e) {
            for (Object m; (m = ch.readInbound()) != null; ) {
                out.add(m);
            }
            out.add(e instanceof DnsDecoderException || e.getCause() instanceof DnsDecoderException
                    ? "DnsDecoderException" : e.toString());
        } finally {
            ch.finishAndReleaseAll();
        }
        return out;
    }
}
