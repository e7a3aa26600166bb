package io.rill.handler.codec.socks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.function.Supplier;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;

/**
 * Fuzz targets for the SOCKS decoders, one per side of the handshake. The payload goes through the
 * decoders of a whole handshake chained in one pipeline (each leaves after its message, so the next
 * gets the rest): SOCKS4 when the first byte is 4, else SOCKS5 with password authentication. Fed
 * whole and in fuzzer-chosen pieces, both runs must give the same messages and errors, only a
 * {@code DecoderException} may escape, nothing may leak, and every decoded message, encoded again,
 * must decode to itself.
 *
 * <p>Seeds: {@code src/test/resources/io/rill/handler/codec/socks/SocksFuzzTestInputs/<method>/},
 * first byte the split selector ({@code io.rill.fuzz.FuzzInput}). {@code scripts/fuzz.sh} fuzzes.
 */
class SocksFuzzTest {

    @FuzzTest
    void serverSide(byte[] input) {
        byte[] payload = FuzzInput.payload(input);
        Supplier<ChannelHandler[]> pipeline = payload.length > 0 && payload[0] == 4
                ? () -> new ChannelHandler[] {new Socks4CommandRequestDecoder(32, 64)}
                : () -> new ChannelHandler[] {new Socks5InitialRequestDecoder(), new Socks5PasswordAuthRequestDecoder(),
                                              new Socks5CommandRequestDecoder()};
        check(input, pipeline);
    }

    @FuzzTest
    void clientSide(byte[] input) {
        byte[] payload = FuzzInput.payload(input);
        Supplier<ChannelHandler[]> pipeline = payload.length > 0 && payload[0] == 0
                ? () -> new ChannelHandler[] {new Socks4CommandResponseDecoder()}
                : () -> new ChannelHandler[] {new Socks5InitialResponseDecoder(), new Socks5PasswordAuthResponseDecoder(),
                                              new Socks5CommandResponseDecoder()};
        check(input, pipeline);
    }

    private static void check(byte[] input, Supplier<ChannelHandler[]> pipeline) {
        FuzzLeaks.assertNoneReported();
        SocksDecodeRun.Result whole = SocksDecodeRun.run(List.of(FuzzInput.payload(input)), pipeline);
        SocksDecodeRun.Result pieces = SocksDecodeRun.run(FuzzInput.pieces(input), pipeline);
        assertEquals(whole.messages(), pieces.messages(), "decoded whole and in pieces");
        assertEquals(whole.errors().stream().map(e -> e.getClass()).toList(),
                pieces.errors().stream().map(e -> e.getClass()).toList(), "errors whole and in pieces");
        roundTrips(FuzzInput.payload(input), pipeline);
    }

    /** Decodes once more, keeping the messages, and checks each survives encode and decode. */
    private static void roundTrips(byte[] payload, Supplier<ChannelHandler[]> pipeline) {
        EmbeddedChannel channel = new EmbeddedChannel(pipeline.get());
        try {
            channel.writeInbound(Unpooled.copiedBuffer(payload));
        } catch (RuntimeException expected) {
            // Checked by the runs above.
        }
        for (Object m; (m = channel.readInbound()) != null; ) {
            if (m instanceof ByteBuf buf) {
                buf.release();
                continue;
            }
            SocksMessage message = (SocksMessage) m;
            byte[] wire = SocksDecodeRun.encode(message);
            EmbeddedChannel again = new EmbeddedChannel(decoderFor(message));
            again.writeInbound(Unpooled.copiedBuffer(wire));
            assertEquals(message, again.readInbound(), "encoded and decoded again");
            again.finish();
        }
        channel.finishAndReleaseAll();
    }

    private static ChannelHandler decoderFor(SocksMessage message) {
        if (message instanceof Socks4CommandRequest) {
            return new Socks4CommandRequestDecoder();
        } else if (message instanceof Socks4CommandResponse) {
            return new Socks4CommandResponseDecoder();
        } else if (message instanceof Socks5InitialRequest) {
            return new Socks5InitialRequestDecoder();
        } else if (message instanceof Socks5InitialResponse) {
            return new Socks5InitialResponseDecoder();
        } else if (message instanceof Socks5PasswordAuthRequest) {
            return new Socks5PasswordAuthRequestDecoder();
        } else if (message instanceof Socks5PasswordAuthResponse) {
            return new Socks5PasswordAuthResponseDecoder();
        } else if (message instanceof Socks5CommandRequest) {
            return new Socks5CommandRequestDecoder();
        }
        return new Socks5CommandResponseDecoder();
    }
}
