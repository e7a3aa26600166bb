package io.rill.handler.codec.socks;

import static io.rill.handler.codec.socks.SocksDecodeRun.encode;
import static io.rill.handler.codec.socks.SocksDecodeRun.everyWay;
import static io.rill.handler.codec.socks.SocksDecodeRun.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.embedded.EmbeddedChannel;

class Socks4CodecTest {

    private static Supplier<ChannelHandler[]> one(Supplier<ChannelHandler> decoder) {
        return () -> new ChannelHandler[] {decoder.get()};
    }

    private static void roundTrip(SocksMessage message, byte[] wire, Supplier<ChannelHandler> decoder) {
        assertArrayEquals(wire, encode(message), "wire bytes of " + message);
        SocksDecodeRun.Result result = everyWay(wire, one(decoder));
        assertEquals(List.of(message.toString()), result.messages());
        assertTrue(result.errors().isEmpty(), () -> "errors: " + result.errors());
    }

    @Test
    void socks4AndSocks4aRequests() {
        Socks4CommandRequest plain = new Socks4CommandRequest(Socks4CommandType.CONNECT, "10.1.2.3", 80, "fred");
        roundTrip(plain, hex("04 01 0050 0a010203 66726564 00"), Socks4CommandRequestDecoder::new);
        Socks4CommandRequest named = new Socks4CommandRequest(Socks4CommandType.BIND, "example.com", 21, "");
        assertTrue(named.isSocks4a());
        roundTrip(named, hex("04 02 0015 00000001 00 6578616d706c652e636f6d 00"), Socks4CommandRequestDecoder::new);
    }

    @Test
    void replies() {
        roundTrip(new Socks4CommandResponse(Socks4ReplyStatus.GRANTED, "1.2.3.4", 8080), hex("00 5a 1f90 01020304"),
                Socks4CommandResponseDecoder::new);
        roundTrip(new Socks4CommandResponse(Socks4ReplyStatus.REJECTED), hex("00 5b 0000 00000000"),
                Socks4CommandResponseDecoder::new);
    }

    @Test
    void socks_05_anOverlongUserIdOrHostNameFailsAtTheCapWithoutWaitingForItsNul() {
        EmbeddedChannel channel = new EmbeddedChannel(new Socks4CommandRequestDecoder(16, 255));
        // Seventeen bytes and no NUL: the decoder fails now rather than buffer whatever comes next.
        SocksFieldTooLongException error = assertThrows(SocksFieldTooLongException.class,
                () -> channel.writeInbound(Unpooled.copiedBuffer(hex("04 01 0050 0a010203" + " 61".repeat(17)))));
        assertTrue(error.getMessage().contains("maxUserIdLength"), error.getMessage());
        // Later bytes are dropped, not decoded.
        channel.writeInbound(Unpooled.copiedBuffer(hex("04 01 0050 0a010203 00")));
        assertNull(channel.readInbound());
        channel.finish();

        Throwable hostError = everyWay(hex("04 01 0050 00000001 00" + " 61".repeat(256)),
                one(Socks4CommandRequestDecoder::new)).onlyError();
        assertInstanceOf(SocksFieldTooLongException.class, hostError);
        assertTrue(hostError.getMessage().contains("maxHostnameLength"), hostError.getMessage());
        // Exactly at the cap is fine.
        SocksDecodeRun.Result atCap = everyWay(hex("04 01 0050 0a010203" + " 61".repeat(16) + " 00"),
                one(() -> new Socks4CommandRequestDecoder(16, 255)));
        assertTrue(atCap.errors().isEmpty(), atCap.toString());
    }

    @Test
    void socks_06_malformedSocks4InputIsRefused() {
        for (String bad : new String[] {"05 01 0050 0a010203 00", "04 03 0050 0a010203 00",
                                        "04 01 0050 00000001 00 00", "04 01 0050 00000001 00 61 7f 00"}) {
            Throwable error = everyWay(hex(bad), one(Socks4CommandRequestDecoder::new)).onlyError();
            assertInstanceOf(SocksProtocolException.class, error, bad);
        }
        for (String bad : new String[] {"04 5a 0000 00000000", "00 5e 0000 00000000"}) {
            Throwable error = everyWay(hex(bad), one(Socks4CommandResponseDecoder::new)).onlyError();
            assertInstanceOf(SocksProtocolException.class, error, bad);
        }
    }

    @Test
    void requestsCheckTheirFieldsWhenBuilt() {
        assertThrows(IllegalArgumentException.class,
                () -> new Socks4CommandRequest(Socks4CommandType.CONNECT, "h", 80, "a\0b"));
        assertThrows(IllegalArgumentException.class,
                () -> new Socks4CommandRequest(Socks4CommandType.CONNECT, "h", 80, "u".repeat(256)));
        assertThrows(IllegalArgumentException.class,
                () -> new Socks4CommandResponse(Socks4ReplyStatus.GRANTED, "example.com", 80));
        assertThrows(IllegalArgumentException.class, () -> new Socks4CommandRequestDecoder(256, 1));
    }
}
