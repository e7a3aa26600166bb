package io.rill.handler.codec.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;

/**
 * Fuzz targets for the {@link RedisDecoder} and {@link RedisAggregator}, one per side: a client
 * (RESP2 and RESP3 replies) and a server (commands, inline ones included). Small limits, so the
 * fuzzer reaches them. Fed whole and in fuzzer-chosen pieces, both runs must give the same messages
 * and errors, only a {@code DecoderException} may escape, nothing may leak, and every decoded
 * message, encoded again, must decode to itself.
 *
 * <p>Seeds: {@code src/test/resources/io/rill/handler/codec/redis/RedisFuzzTestInputs/<method>/},
 * first byte the split selector ({@code io.rill.fuzz.FuzzInput}). {@code scripts/fuzz.sh} fuzzes.
 */
class RedisFuzzTest {

    private static final RedisLimits LIMITS = RedisLimits.DEFAULT.withMaxBulkLength(4096).withMaxLineLength(256)
            .withMaxInlineLength(256).withMaxAggregateLength(512).withMaxDepth(8).withMaxMessageBytes(16384);

    @FuzzTest
    void clientSide(byte[] input) {
        check(input, false);
    }

    @FuzzTest
    void serverSide(byte[] input) {
        check(input, true);
    }

    private static void check(byte[] input, boolean inline) {
        FuzzLeaks.assertNoneReported();
        RedisDecodeRun.Result whole = RedisDecodeRun.run(List.of(FuzzInput.payload(input)), LIMITS, inline);
        RedisDecodeRun.Result pieces = RedisDecodeRun.run(FuzzInput.pieces(input), LIMITS, inline);
        assertEquals(whole.messages(), pieces.messages(), "decoded whole and in pieces");
        assertEquals(whole.errors().stream().map(e -> e.getClass()).toList(),
                pieces.errors().stream().map(e -> e.getClass()).toList(), "errors whole and in pieces");
        roundTrips(FuzzInput.payload(input), inline);
    }

    /** Decodes once more, keeping the messages, and checks each survives encode and decode. */
    private static void roundTrips(byte[] payload, boolean inline) {
        EmbeddedChannel channel = new EmbeddedChannel(new RedisDecoder(LIMITS, inline), new RedisAggregator(LIMITS));
        try {
            channel.writeInbound(Unpooled.copiedBuffer(payload));
        } catch (RuntimeException expected) {
            // Checked by the runs above.
        }
        List<Object> decoded = new ArrayList<>();
        for (Object m; (m = channel.readInbound()) != null; ) {
            decoded.add(m);
        }
        channel.finishAndReleaseAll();
        for (Object m : decoded) {
            String before = m.toString();
            byte[] wire = RedisDecodeRun.encode((RedisMessage) m); // releases m
            EmbeddedChannel again = new EmbeddedChannel(new RedisDecoder(), new RedisAggregator());
            again.writeInbound(Unpooled.copiedBuffer(wire));
            Object back = again.readInbound();
            assertEquals(before, String.valueOf(back), "encoded and decoded again");
            ReferenceCountUtil.release(back);
            again.finishAndReleaseAll();
        }
    }
}
