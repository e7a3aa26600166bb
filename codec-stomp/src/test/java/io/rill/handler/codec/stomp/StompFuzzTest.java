package io.rill.handler.codec.stomp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;
import io.rill.handler.codec.DecoderException;

/**
 * Fuzz target for {@link StompFrameDecoder} with bounds the fuzzer can reach (128-byte lines, 8
 * headers, 512-byte bodies). Fed whole and in fuzzer-chosen pieces, both runs must give the same
 * frames and errors, only a {@code DecoderException} may escape, nothing may leak, and each frame
 * written again by the encoder must decode to itself.
 *
 * <p>Seeds: {@code src/test/resources/io/rill/handler/codec/stomp/StompFuzzTestInputs/frames/},
 * first byte the split selector ({@code io.rill.fuzz.FuzzInput}). {@code scripts/fuzz.sh} fuzzes.
 */
class StompFuzzTest {

    @FuzzTest
    void frames(byte[] input) {
        FuzzLeaks.assertNoneReported();
        List<Object> whole = run(List.of(FuzzInput.payload(input)));
        List<Object> pieces = run(FuzzInput.pieces(input));
        // An error and the frames of the same read come in no fixed order: compare each kind alone.
        assertEquals(kind(whole, false), kind(pieces, false), "frames whole and in pieces");
        assertEquals(kind(whole, true), kind(pieces, true), "errors whole and in pieces");
        for (Object o : whole) {
            if (o instanceof StompFrame f) {
                EmbeddedChannel out = new EmbeddedChannel(StompFrameEncoder.INSTANCE);
                out.writeOutbound(f.retain());
                ByteBuf wire = out.readOutbound();
                byte[] bytes = new byte[wire.readableBytes()];
                wire.readBytes(bytes);
                wire.release();
                out.finish();
                List<Object> again = run(List.of(bytes));
                assertEquals(describe(f), again.isEmpty() ? null : again.get(0), "written and read again");
            }
        }
    }

    private static List<Object> kind(List<Object> got, boolean errors) {
        return got.stream().filter(o -> (o instanceof Class) == errors).toList();
    }

    private static String describe(StompFrame f) {
        return f.command() + " " + f.headers() + " " + f.content().toString(StandardCharsets.ISO_8859_1);
    }

    /** Frames (described) and error classes; heartbeats are left out, their count depends on the cuts. */
    private static List<Object> run(List<byte[]> chunks) {
        EmbeddedChannel ch = new EmbeddedChannel(new StompFrameDecoder(128, 8, 512));
        List<Object> got = new ArrayList<>();
        for (byte[] c : chunks) {
            try {
                ch.writeInbound(Unpooled.copiedBuffer(c));
            } catch (DecoderException e) {
                got.add(e.getClass());
            }
            for (Object m; (m = ch.readInbound()) != null; ) {
                if (m instanceof StompFrame f) {
                    got.add(describe(f));
                    f.release();
                }
            }
        }
        ch.finishAndReleaseAll();
        return got;
    }
}
