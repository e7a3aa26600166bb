package io.rill.handler.codec.socks;

import static io.rill.handler.codec.socks.SocksDecodeRun.encode;
import static io.rill.handler.codec.socks.SocksDecodeRun.everyWay;
import static io.rill.handler.codec.socks.SocksDecodeRun.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import io.rill.channel.ChannelHandler;

class Socks5CodecTest {

    private static Supplier<ChannelHandler[]> one(Supplier<ChannelHandler> decoder) {
        return () -> new ChannelHandler[] {decoder.get()};
    }

    /** Encodes, decodes every way, and expects the same message back and nothing else. */
    private static void roundTrip(SocksMessage message, byte[] wire, Supplier<ChannelHandler> decoder) {
        assertArrayEquals(wire, encode(message), "wire bytes of " + message);
        SocksDecodeRun.Result result = everyWay(wire, one(decoder));
        assertEquals(List.of(message.toString()), result.messages());
        assertTrue(result.errors().isEmpty(), () -> "errors: " + result.errors());
    }

    @Test
    void greetingAndMethodSelection() {
        roundTrip(new Socks5InitialRequest(List.of(Socks5AuthMethod.NO_AUTH, Socks5AuthMethod.PASSWORD)),
                hex("05 02 00 02"), Socks5InitialRequestDecoder::new);
        roundTrip(new Socks5InitialResponse(Socks5AuthMethod.PASSWORD), hex("05 02"), Socks5InitialResponseDecoder::new);
        roundTrip(new Socks5InitialResponse(Socks5AuthMethod.NO_ACCEPTABLE_METHODS), hex("05 ff"),
                Socks5InitialResponseDecoder::new);
    }

    @Test
    void unknownMethodsAreReadNotRefused() {
        roundTrip(new Socks5InitialRequest(List.of(new Socks5AuthMethod(0x80), Socks5AuthMethod.NO_AUTH)),
                hex("05 02 80 00"), Socks5InitialRequestDecoder::new);
    }

    @Test
    void usernamePassword() {
        roundTrip(new Socks5PasswordAuthRequest("alice", "s\u00e9cret"), hex("01 05 616c696365 07 73c3a9637265 74"),
                Socks5PasswordAuthRequestDecoder::new);
        roundTrip(Socks5PasswordAuthResponse.SUCCESS, hex("01 00"), Socks5PasswordAuthResponseDecoder::new);
        roundTrip(new Socks5PasswordAuthResponse(0x11), hex("01 11"), Socks5PasswordAuthResponseDecoder::new);
        assertTrue(!new Socks5PasswordAuthRequest("alice", "secret").toString().contains("secret"),
                "toString hides the password");
    }

    @Test
    void requestsForEveryAddressType() {
        roundTrip(new Socks5CommandRequest(Socks5CommandType.CONNECT, "127.0.0.1", 80), hex("05 01 00 01 7f000001 0050"),
                Socks5CommandRequestDecoder::new);
        roundTrip(new Socks5CommandRequest(Socks5CommandType.CONNECT, "example.com", 443),
                hex("05 01 00 03 0b 6578616d706c652e636f6d 01bb"), Socks5CommandRequestDecoder::new);
        roundTrip(new Socks5CommandRequest(Socks5CommandType.BIND, Socks5AddressType.IPV6, "0:0:0:0:0:0:0:1", 65535),
                hex("05 02 00 04 00000000000000000000000000000001 ffff"), Socks5CommandRequestDecoder::new);
        roundTrip(new Socks5CommandRequest(new Socks5CommandType(0x7e), "10.0.0.1", 1), hex("05 7e 00 01 0a000001 0001"),
                Socks5CommandRequestDecoder::new);
    }

    @Test
    void replies() {
        roundTrip(new Socks5CommandResponse(Socks5CommandStatus.SUCCESS, Socks5AddressType.IPV4, "192.168.1.2", 1080),
                hex("05 00 00 01 c0a80102 0438"), Socks5CommandResponseDecoder::new);
        roundTrip(new Socks5CommandResponse(Socks5CommandStatus.CONNECTION_REFUSED), hex("05 05 00 01 00000000 0000"),
                Socks5CommandResponseDecoder::new);
        roundTrip(new Socks5CommandResponse(new Socks5CommandStatus(0x42), Socks5AddressType.DOMAIN, "p", 7),
                hex("05 42 00 03 01 70 0007"), Socks5CommandResponseDecoder::new);
        assertEquals("connection refused (reply 0x05)", Socks5CommandStatus.CONNECTION_REFUSED.toString());
    }

    @Test
    void anIpv4MappedAddressStaysAnIpv6Address() {
        byte[] wire = hex("05 00 00 04 00000000000000000000ffff7f000001 0050");
        SocksDecodeRun.Result result = everyWay(wire, one(Socks5CommandResponseDecoder::new));
        assertTrue(result.errors().isEmpty(), () -> "errors: " + result.errors());
        assertTrue(result.messages().get(0).contains("IPV6"), result.messages().get(0));
    }

    @Test
    void bytesAfterTheMessageArePassedOnAndTheDecoderLeaves() {
        SocksDecodeRun.Result result = everyWay(hex("05 00 00 01 7f000001 0050 48 54 54 50"),
                one(Socks5CommandResponseDecoder::new));
        assertEquals(List.of(new Socks5CommandResponse(Socks5CommandStatus.SUCCESS, Socks5AddressType.IPV4,
                "127.0.0.1", 80).toString(), "bytes:48545450"), result.messages());
    }

    @Test
    void socks_01_malformedRequestsAreRefusedAndWhatFollowsIsDropped() {
        String[][] cases = {
            {"04 01 00", "version 4 (expected: 5)"},
            {"05 00", "NMETHODS 0"},
        };
        for (String[] c : cases) {
            Throwable error = everyWay(hex(c[0] + " 05 01 00"), one(Socks5InitialRequestDecoder::new)).onlyError();
            assertInstanceOf(SocksProtocolException.class, error);
            assertTrue(error.getMessage().contains(c[1]), error.getMessage());
        }
        String[][] requests = {
            {"05 01 01 01 7f000001 0050", "reserved byte 0x1"},
            {"05 01 00 03 00 0050", "empty host name"},
            {"05 01 00 03 04 61 0a 62 63 0050", "byte 0xa"},
            {"05 01 00 03 02 c3a9 0050", "byte 0xc3"},
            {"06 01 00 01 7f000001 0050", "version 6"},
        };
        for (String[] c : requests) {
            SocksDecodeRun.Result result = everyWay(hex(c[0] + " 05 01 00 01 7f000001 0050"),
                    one(Socks5CommandRequestDecoder::new));
            assertTrue(result.messages().isEmpty(), () -> c[0] + " decoded " + result.messages());
            Throwable error = result.onlyError();
            assertInstanceOf(SocksProtocolException.class, error);
            assertTrue(error.getMessage().contains(c[1]), error.getMessage());
        }
    }

    @Test
    void socks_02_anUnknownAddressTypeHasItsOwnException() {
        Throwable error = everyWay(hex("05 01 00 02 7f000001 0050"), one(Socks5CommandRequestDecoder::new)).onlyError();
        assertInstanceOf(SocksUnsupportedAddressTypeException.class, error);
        assertTrue(error.getMessage().contains("address type 0x2"), error.getMessage());
    }

    @Test
    void socks_03_malformedOrTruncatedRepliesFailTheClientDecoder() {
        Throwable error = everyWay(hex("05 00 07 01 00000000 0000"), one(Socks5CommandResponseDecoder::new)).onlyError();
        assertInstanceOf(SocksProtocolException.class, error);
        error = everyWay(hex("04 00"), one(Socks5InitialResponseDecoder::new)).onlyError();
        assertInstanceOf(SocksProtocolException.class, error);
        error = everyWay(hex("05 00"), one(Socks5PasswordAuthResponseDecoder::new)).onlyError();
        assertTrue(error.getMessage().contains("version 5 (expected: 1)"), error.getMessage());
        // A reply cut short decodes nothing and reports nothing; the proxy handler's timeout or the close ends it.
        SocksDecodeRun.Result truncated = everyWay(hex("05 00 00 03 0a 6162"), one(Socks5CommandResponseDecoder::new));
        assertTrue(truncated.messages().isEmpty() && truncated.errors().isEmpty(), truncated.toString());
    }

    @Test
    void socks_04_emptyOrNonUtf8CredentialsAreRefused() {
        for (String bad : new String[] {"01 00 01 61", "01 01 61 00", "01 01 ff 01 61", "02 01 61 01 61"}) {
            Throwable error = everyWay(hex(bad), one(Socks5PasswordAuthRequestDecoder::new)).onlyError();
            assertInstanceOf(SocksProtocolException.class, error, bad);
        }
    }

    @Test
    void messagesCheckTheirFieldsWhenBuilt() {
        assertThrows(IllegalArgumentException.class, () -> new Socks5InitialRequest(List.of()));
        assertThrows(IllegalArgumentException.class, () -> new Socks5PasswordAuthRequest("", "x"));
        assertThrows(IllegalArgumentException.class, () -> new Socks5PasswordAuthRequest("x", "y".repeat(256)));
        assertThrows(IllegalArgumentException.class, () -> new Socks5CommandRequest(Socks5CommandType.CONNECT,
                "a".repeat(256), 80));
        assertThrows(IllegalArgumentException.class, () -> new Socks5CommandRequest(Socks5CommandType.CONNECT,
                "bad\r\nhost", 80));
        assertThrows(IllegalArgumentException.class, () -> new Socks5CommandRequest(Socks5CommandType.CONNECT,
                "example.com", 65536));
        assertThrows(IllegalArgumentException.class, () -> new Socks5CommandRequest(Socks5CommandType.CONNECT,
                Socks5AddressType.IPV4, "example.com", 80));
    }

    @Test
    void socks_12_theNextDecoderAddedByTheHandlerGetsTheBytesThatCameInTheSameRead() {
        // A client that sends its greeting and its request in one write: the server's handler adds the
        // request decoder when it gets the greeting, and the request must reach that decoder.
        List<Object> seen = new java.util.ArrayList<>();
        io.rill.channel.embedded.EmbeddedChannel channel = new io.rill.channel.embedded.EmbeddedChannel(
                new Socks5InitialRequestDecoder(), new ChannelHandler() {
                    @Override
                    public void channelRead(io.rill.channel.ChannelHandlerContext ctx, Object msg) {
                        seen.add(msg);
                        if (msg instanceof Socks5InitialRequest) {
                            ctx.pipeline().addBefore(ctx.name(), null, new Socks5CommandRequestDecoder());
                        }
                    }
                });
        channel.writeInbound(io.rill.buffer.Unpooled.copiedBuffer(hex("05 01 00 05 01 00 01 7f000001 0050")));
        assertEquals(List.of(new Socks5InitialRequest(List.of(Socks5AuthMethod.NO_AUTH)),
                new Socks5CommandRequest(Socks5CommandType.CONNECT, "127.0.0.1", 80)), seen);
        assertTrue(channel.pipeline().get(SocksMessageDecoder.class) == null, "both decoders left");
        channel.finish();
    }
}
