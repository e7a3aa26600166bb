package io.rill.handler.codec.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.Struct;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;
import io.rill.handler.codec.DecoderException;
import io.rill.handler.codec.ProtobufVarint32FrameDecoder;

/**
 * Fuzz target for a varint-delimited stream of {@code Struct} messages (maps, lists and nesting:
 * the recursive shapes). Fed whole and in fuzzer-chosen pieces, both runs must give the same
 * messages and error classes, only a {@code DecoderException} may escape, nothing may leak, and
 * every message decoded must encode back to a frame that decodes to it. Bounds are small
 * (4 KiB, depth 20) so that the fuzzer reaches them.
 *
 * <p>Seeds: {@code src/test/resources/io/rill/handler/codec/protobuf/ProtobufFuzzTestInputs/delimitedStream/},
 * first byte the split selector ({@code io.rill.fuzz.FuzzInput}). {@code scripts/fuzz.sh} fuzzes.
 */
class ProtobufFuzzTest {

    private static final ProtobufDecoder DECODER = ProtobufDecoder.builder(Struct.getDefaultInstance())
            .maxMessageBytes(4096).recursionLimit(20).build();

    @FuzzTest
    void delimitedStream(byte[] input) {
        FuzzLeaks.assertNoneReported();
        List<Object> whole = run(List.of(FuzzInput.payload(input)));
        List<Object> pieces = run(FuzzInput.pieces(input));
        // An error and the messages of the same read are seen in no particular order: compare each kind.
        assertEquals(messages(whole), messages(pieces), "messages decoded whole and in pieces");
        // The frames after a bad one still decode, and one read reports only its first error, so the
        // count of errors depends on the cuts; whether there is one does not.
        assertEquals(errors(whole).isEmpty(), errors(pieces).isEmpty(), "an error whole and in pieces");
        for (Object m : whole) {
            if (m instanceof Struct s) {
                EmbeddedChannel out = new EmbeddedChannel(ProtobufEncoder.DELIMITED);
                out.writeOutbound(s);
                ByteBuf frame = out.readOutbound();
                byte[] bytes = ByteBufUtil.getBytes(frame);
                frame.release();
                out.finish();
                assertEquals(List.of(s), run(List.of(bytes)), "encoded and decoded again");
            }
        }
    }

    private static List<Object> messages(List<Object> got) {
        return got.stream().filter(m -> !(m instanceof Class)).toList();
    }

    private static List<Object> errors(List<Object> got) {
        return got.stream().filter(m -> m instanceof Class).toList();
    }

    /** Messages, and the classes of the errors, as they came. */
    private static List<Object> run(List<byte[]> chunks) {
        EmbeddedChannel ch = new EmbeddedChannel(new ProtobufVarint32FrameDecoder(8192), DECODER);
        List<Object> got = new ArrayList<>();
        for (byte[] c : chunks) {
            try {
                ch.writeInbound(Unpooled.copiedBuffer(c));
            } catch (DecoderException e) {
                got.add(e.getClass());
            }
            for (Object m; (m = ch.readInbound()) != null; ) {
                got.add(m);
            }
        }
        ch.finishAndReleaseAll();
        return got;
    }
}
