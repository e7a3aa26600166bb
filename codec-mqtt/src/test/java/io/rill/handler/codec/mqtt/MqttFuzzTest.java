package io.rill.handler.codec.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;

/**
 * Fuzz targets for {@link MqttCodec}, one per side. The payload is fed whole and in fuzzer-chosen
 * pieces: both runs must give the same messages and errors, only a {@code DecoderException} may
 * escape, nothing may leak, and every decoded message, encoded again by the other side's codec,
 * must decode to itself. The client side speaks 5.0 when the first payload byte is odd.
 *
 * <p>Seeds: {@code src/test/resources/io/rill/handler/codec/mqtt/MqttFuzzTestInputs/<method>/},
 * first byte the split selector ({@code io.rill.fuzz.FuzzInput}). {@code scripts/fuzz.sh} fuzzes.
 */
class MqttFuzzTest {

    @FuzzTest
    void serverSide(byte[] input) {
        check(input, () -> MqttCodec.server(4096, 32), true);
    }

    @FuzzTest
    void clientSide(byte[] input) {
        byte[] payload = FuzzInput.payload(input);
        MqttVersion version = payload.length > 0 && (payload[0] & 1) == 1 ? MqttVersion.V5 : MqttVersion.V3_1_1;
        check(input, () -> MqttCodec.client(version, 4096, 32), false);
    }

    private static void check(byte[] input, Supplier<MqttCodec> codec, boolean server) {
        FuzzLeaks.assertNoneReported();
        MqttDecodeRun.Result whole = MqttDecodeRun.run(List.of(FuzzInput.payload(input)), codec);
        MqttDecodeRun.Result pieces = MqttDecodeRun.run(FuzzInput.pieces(input), codec);
        assertEquals(whole.messages(), pieces.messages(), "decoded whole and in pieces");
        assertEquals(whole.errors().stream().map(e -> e.getClass()).toList(),
                pieces.errors().stream().map(e -> e.getClass()).toList(), "errors whole and in pieces");
        roundTrips(FuzzInput.payload(input), codec, server);
    }

    /**
     * Decodes once more, re-encodes each message with a codec of the sending side (a client's for
     * what a server decoded), and decodes that again with a fresh receiver: the texts must agree.
     */
    private static void roundTrips(byte[] payload, Supplier<MqttCodec> codec, boolean server) {
        EmbeddedChannel channel = new EmbeddedChannel(codec.get());
        try {
            channel.writeInbound(Unpooled.copiedBuffer(payload));
        } catch (RuntimeException expected) {
            // Checked by the runs above.
        }
        MqttVersion version = server ? null : channel.pipeline().get(MqttCodec.class).version();
        List<String> decoded = new ArrayList<>();
        EmbeddedChannel sender = null;
        ByteBuf wire = Unpooled.buffer();
        for (Object m; (m = channel.readInbound()) != null; ) {
            MqttMessage message = (MqttMessage) m;
            decoded.add(message.toString());
            if (sender == null) {
                version = message instanceof MqttConnect c ? c.version() : version;
                sender = new EmbeddedChannel(server ? MqttCodec.client(version) : MqttCodec.server());
                if (!server) {
                    sender.writeInbound(Unpooled.copiedBuffer(MqttDecodeRun.connectBytes(version)));
                    sender.releaseInbound();
                }
            }
            sender.writeOutbound(message);
            for (ByteBuf out; (out = sender.readOutbound()) != null; ) {
                wire.writeBytes(out);
                out.release();
            }
        }
        channel.finishAndReleaseAll();
        if (sender == null) {
            wire.release();
            return;
        }
        sender.finishAndReleaseAll();
        byte[] bytes = ByteBufUtil.getBytes(wire);
        wire.release();
        MqttDecodeRun.Result again = MqttDecodeRun.run(List.of(bytes), codec);
        assertEquals(List.of(), again.errors(), "re-encoded messages decode");
        assertEquals(decoded, again.messages(), "encoded and decoded again");
    }
}
