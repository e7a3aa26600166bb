package io.rill.handler.codec.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;

/**
 * Fuzz targets for the HTTP/1.1 decoders (head, fixed and chunked bodies, trailers) and the
 * chunk-size line. The decoders never throw: bad input becomes one message whose decoder result
 * failed, so any exception is a finding. Each input is decoded whole and in fuzzer-chosen pieces
 * and must give the same messages ({@link HttpDecodeRun} renders them); no content piece is
 * larger than the configured chunk size; and the messages decoded before any failure, written
 * out again by the matching encoder, decode to the same messages.
 *
 * <p>Seeds are in {@code src/test/resources/io/rill/handler/codec/http/Http1FuzzTestInputs/},
 * the first byte of each choosing the pieces ({@code io.rill.fuzz.FuzzInput}); they include the
 * H1, S and L inputs of docs/security-cases.md.
 */
class Http1FuzzTest {

    /** Small limits, so the fuzzer reaches them with short inputs. */
    private static final HttpDecoderConfig CONFIG = new HttpDecoderConfig(256, 512, 64, true);

    /** For decoding what the encoder wrote again. */
    private static final HttpDecoderConfig WIDE = new HttpDecoderConfig(1 << 16, 1 << 20, 64, true);

    @FuzzTest
    void request(byte[] input) {
        decode(input, () -> new HttpRequestDecoder(CONFIG), () -> new HttpRequestDecoder(WIDE), HttpRequestEncoder::new);
    }

    @FuzzTest
    void response(byte[] input) {
        decode(input, () -> new HttpResponseDecoder(CONFIG), () -> new HttpResponseDecoder(WIDE), HttpResponseEncoder::new);
    }

    @FuzzTest
    void chunkLine(byte[] input) {
        FuzzLeaks.assertNoneReported();
        byte[] line = FuzzInput.payload(input);
        ByteBuf buf = Unpooled.wrappedBuffer(line);
        try {
            int size = ChunkLineParser.parse(buf, 0, line.length);
            assertTrue(size >= 0, "a chunk size is never negative: " + size);
            ByteBuf again = Unpooled.wrappedBuffer(Integer.toHexString(size).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            assertEquals(size, ChunkLineParser.parse(again, 0, again.readableBytes()), "size, hex, size");
            again.release();
        } catch (HttpDecoderException expected) {
            // Refused with the status to answer; the message quotes the line.
        } finally {
            buf.release();
        }
    }

    private static void decode(byte[] input, Supplier<ChannelHandler> decoder, Supplier<ChannelHandler> wide,
                               Supplier<ChannelHandler> encoder) {
        FuzzLeaks.assertNoneReported();
        byte[] payload = FuzzInput.payload(input);
        List<String> whole = HttpDecodeRun.run(decoder, payload, List.of(payload.length));
        List<Integer> cuts = new ArrayList<>();
        for (byte[] piece : FuzzInput.pieces(input)) {
            cuts.add(piece.length);
        }
        assertEquals(whole, HttpDecodeRun.run(decoder, payload, cuts), "decoded whole and in pieces");

        // Re-encode every message decoded before the first failure, and decode that again.
        List<Object> valid = decodeValid(decoder, payload);
        EmbeddedChannel out = new EmbeddedChannel(encoder.get());
        ByteBuf wire = Unpooled.buffer();
        try {
            for (Object message : valid) {
                out.writeOutbound(message);
            }
            for (ByteBuf b; (b = out.readOutbound()) != null; ) {
                wire.writeBytes(b);
                b.release();
            }
            out.finishAndReleaseAll();
            byte[] encoded = ByteBufUtil.getBytes(wire);
            // The encoder writes a space after each colon, so a head near the size limit may pass
            // it written again: the limits were checked on the first decode, the second uses wide ones.
            List<String> again = HttpDecodeRun.run(wide, encoded, List.of(encoded.length));
            int complete = (int) valid.stream().filter(m -> m instanceof LastHttpContent).count();
            assertEquals(whole.subList(0, complete), again, "decode, encode, decode");
        } finally {
            wire.release();
        }
    }

    /** The objects of the complete messages before the first failure; the rest released. */
    private static List<Object> decodeValid(Supplier<ChannelHandler> decoder, byte[] payload) {
        EmbeddedChannel in = new EmbeddedChannel(decoder.get());
        in.writeInbound(Unpooled.wrappedBuffer(payload));
        in.finish();
        List<Object> valid = new ArrayList<>();
        int completeUpTo = 0;
        boolean failed = false;
        for (Object m; (m = in.readInbound()) != null; ) {
            if (failed || ((HttpObject) m).decoderResult().isFailure()) {
                failed = true;
                ReferenceCountUtil.release(m);
                continue;
            }
            if (m instanceof HttpContent c) {
                assertTrue(c.content().readableBytes() <= CONFIG.maxChunkSize(),
                        () -> "content piece of " + c.content().readableBytes() + " bytes over maxChunkSize");
            }
            valid.add(m);
            if (m instanceof LastHttpContent) {
                completeUpTo = valid.size();
            }
        }
        while (valid.size() > completeUpTo) {
            ReferenceCountUtil.release(valid.remove(valid.size() - 1));
        }
        return valid;
    }

}
