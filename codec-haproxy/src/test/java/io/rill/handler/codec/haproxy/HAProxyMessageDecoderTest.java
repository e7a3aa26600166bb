package io.rill.handler.codec.haproxy;

import static io.rill.handler.codec.haproxy.HAProxyDecodeRun.everyWay;
import static io.rill.handler.codec.haproxy.HAProxyDecodeRun.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;

class HAProxyMessageDecoderTest {

    private static final String SIG = "0d0a0d0a000d0a515549540a";

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] encode(HAProxyMessage message) {
        EmbeddedChannel channel = new EmbeddedChannel(HAProxyMessageEncoder.INSTANCE);
        channel.writeOutbound(message);
        ByteBuf buf = channel.readOutbound();
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
            channel.finish();
        }
    }

    // ---------------------------------------------------------------- version 1, the spec's examples

    @Test
    void v1Tcp4AndTheBytesAfterIt() {
        HAProxyDecodeRun.Result r = everyWay(ascii("PROXY TCP4 192.168.0.1 192.168.0.11 56324 443\r\nGET / HTTP/1.1\r\n"));
        assertEquals(HAProxyMessage.v1(HAProxyProxiedProtocol.TCP4, "192.168.0.1", "192.168.0.11", 56324, 443),
                r.message());
        assertEquals(java.util.HexFormat.of().formatHex(ascii("GET / HTTP/1.1\r\n")), r.passedOn());
        assertEquals(new InetSocketAddress("192.168.0.1", 56324), r.message().sourceSocketAddress());
        assertTrue(r.errors().isEmpty());
    }

    @Test
    void v1TheLongestLinesOfTheSpecAreAccepted() {
        String tcp4 = "PROXY TCP4 255.255.255.255 255.255.255.255 65535 65535\r\n";
        String ffff = "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff";
        String tcp6 = "PROXY TCP6 " + ffff + " " + ffff + " 65535 65535\r\n";
        String unknown = "PROXY UNKNOWN " + ffff + " " + ffff + " 65535 65535\r\n";
        assertEquals(104, tcp6.length());
        assertEquals(107, unknown.length(), "the spec's worst case: 107 bytes");
        assertEquals(65535, everyWay(ascii(tcp4)).message().sourcePort());
        assertEquals(ffff, everyWay(ascii(tcp6)).message().sourceAddress());
        assertEquals(HAProxyProxiedProtocol.UNKNOWN, everyWay(ascii(unknown)).message().protocol());
        assertEquals(HAProxyProxiedProtocol.UNKNOWN, everyWay(ascii("PROXY UNKNOWN\r\n")).message().protocol());
    }

    @Test
    void proxy_01_aV1LinePast107BytesFailsWithoutWaitingForItsEnd() {
        byte[] line = ascii("PROXY UNKNOWN " + "x".repeat(93));
        assertEquals(107, line.length);
        HAProxyDecodeRun.Result r = everyWay(line);
        assertInstanceOf(HAProxyHeaderTooLongException.class, r.onlyError());
        assertTrue(r.onlyError().getMessage().contains("107"), r.onlyError().getMessage());
        assertFalse(r.open(), "the connection closes");
    }

    @Test
    void proxy_06_malformedV1LinesAreRefused() {
        String[] bad = {
            "PROXY TCP4 192.168.0.1 192.168.0.11 56324 443\n",
            "PROXY TCP4 192.168.0.01 192.168.0.11 56324 443\r\n",
            "PROXY TCP4 192.168.0.1 192.168.0.11 056324 443\r\n",
            "PROXY TCP4 192.168.0.1 192.168.0.11 65536 443\r\n",
            "PROXY TCP4 ::1 192.168.0.11 1 443\r\n",
            "PROXY TCP6 192.168.0.1 ::1 1 443\r\n",
            "PROXY TCP4 192.168.0.1  192.168.0.11 56324 443\r\n",
            "PROXY TCP5 192.168.0.1 192.168.0.11 56324 443\r\n",
            "PROXY TCP4 1.2.3.4 5.6.7.8 1 2 3\r\n",
            "PROXY TCP4 1.2.3.4 5.6.7.8 1 2\u0000\r\n",
            "proxy TCP4 1.2.3.4 5.6.7.8 1 2\r\n",
            "GET / HTTP/1.1\r\n",
        };
        for (String line : bad) {
            HAProxyDecodeRun.Result r = everyWay(ascii(line));
            assertNull(r.message(), line);
            assertInstanceOf(HAProxyProtocolException.class, r.onlyError(), line);
            assertEquals("", r.passedOn(), "nothing after a bad header reaches the application: " + line);
            assertFalse(r.open(), line);
        }
    }

    // ---------------------------------------------------------------- version 2

    @Test
    void v2Tcp4FromTheSpecLayout() {
        byte[] header = hex(SIG + "21 11 000c c0a80001 c0a8000b dc04 01bb" + "474554");
        HAProxyDecodeRun.Result r = everyWay(header);
        assertEquals(new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY, HAProxyProxiedProtocol.TCP4,
                "192.168.0.1", "192.168.0.11", 56324, 443, List.of()), r.message());
        assertEquals("474554", r.passedOn());
    }

    @Test
    void v2Tcp6UnixLocalAndUnknown() {
        HAProxyDecodeRun.Result tcp6 = everyWay(hex(SIG + "21 21 0024" + "20010db8000000000000000000000001"
                + "00000000000000000000000000000001" + "1f90 0050"));
        assertEquals("2001:db8:0:0:0:0:0:1", tcp6.message().sourceAddress());
        assertEquals(8080, tcp6.message().sourcePort());

        HAProxyMessage unix = new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY,
                HAProxyProxiedProtocol.UNIX_STREAM, "/run/client.sock", "/run/server.sock", 0, 0, List.of());
        byte[] unixBytes = encode(unix);
        assertEquals(16 + 216, unixBytes.length);
        assertEquals(unix, everyWay(unixBytes).message());
        assertEquals(UnixDomainSocketAddress.of("/run/client.sock"), unix.sourceSocketAddress());

        // LOCAL: the address block (here a TCP4 one) is ignored, as the spec says.
        HAProxyMessage local = everyWay(hex(SIG + "20 11 000c c0a80001 c0a8000b dc04 01bb")).message();
        assertEquals(HAProxyCommand.LOCAL, local.command());
        assertNull(local.sourceSocketAddress());
        HAProxyMessage unspec = everyWay(hex(SIG + "21 00 0000")).message();
        assertEquals(HAProxyProxiedProtocol.UNKNOWN, unspec.protocol());
    }

    @Test
    void v2TlvsIncludingSslSubTlvsAndACheckedCrc() {
        HAProxyTlv ssl = HAProxyTlv.ssl(0x07, 0, List.of(new HAProxyTlv(HAProxyTlv.TYPE_SSL_VERSION, ascii("TLSv1.3")),
                new HAProxyTlv(HAProxyTlv.TYPE_SSL_CN, ascii("client.example"))));
        HAProxyMessage message = new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY,
                HAProxyProxiedProtocol.TCP4, "10.0.0.1", "10.0.0.2", 1234, 443, List.of(
                        new HAProxyTlv(HAProxyTlv.TYPE_ALPN, ascii("h2")),
                        new HAProxyTlv(HAProxyTlv.TYPE_AUTHORITY, ascii("example.com")), ssl,
                        new HAProxyTlv(HAProxyTlv.TYPE_CRC32C, new byte[4]),
                        new HAProxyTlv(HAProxyTlv.TYPE_NOOP, new byte[3])));
        byte[] wire = encode(message);
        HAProxyMessage decoded = everyWay(wire).message();
        assertEquals(5, decoded.tlvs().size());
        assertArrayEquals(ascii("example.com"), decoded.tlv(HAProxyTlv.TYPE_AUTHORITY).value());
        HAProxyTlv decodedSsl = decoded.tlv(HAProxyTlv.TYPE_SSL);
        assertEquals(0x07, decodedSsl.sslClient());
        assertEquals(0, decodedSsl.sslVerify());
        assertEquals(ssl.subTlvs(), decodedSsl.subTlvs());
        assertFalse(java.util.Arrays.equals(new byte[4], decoded.tlv(HAProxyTlv.TYPE_CRC32C).value()),
                "the encoder filled the CRC in");
    }

    @Test
    void proxy_04_aBadCrcIsRefused() {
        HAProxyMessage message = new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY,
                HAProxyProxiedProtocol.TCP4, "10.0.0.1", "10.0.0.2", 1234, 443,
                List.of(new HAProxyTlv(HAProxyTlv.TYPE_CRC32C, new byte[4])));
        byte[] wire = encode(message);
        wire[16] ^= 1; // the source address changes under the checksum
        HAProxyDecodeRun.Result r = everyWay(wire);
        assertNull(r.message());
        assertTrue(r.onlyError().getMessage().contains("CRC32c"), r.onlyError().getMessage());
        assertFalse(r.open());
    }

    @Test
    void proxy_03_aV2LengthPastTheBoundFailsAtTheFixedHeader() {
        // Sixteen bytes announce 65535 more: refused at once, nothing buffered waiting for them.
        HAProxyDecodeRun.Result r = everyWay(hex(SIG + "21 11 ffff"));
        assertInstanceOf(HAProxyHeaderTooLongException.class, r.onlyError());
        assertTrue(r.onlyError().getMessage().contains("maxHeaderLength"), r.onlyError().getMessage());
    }

    @Test
    void proxy_05_tlvsThatRunPastTheHeaderAreRefused() {
        String[] bad = {
            SIG + "21 11 0010 c0a80001 c0a8000b dc04 01bb 01 0005 6832",       // TLV longer than what is left
            SIG + "21 11 000e c0a80001 c0a8000b dc04 01bb 0100",              // 2 bytes: no room for a TLV header
            SIG + "21 11 0013 c0a80001 c0a8000b dc04 01bb 20 0004 07000000",  // SSL TLV shorter than 5
            SIG + "21 11 001a c0a80001 c0a8000b dc04 01bb 20 000b 0700000000 21 0009 544c53",  // sub-TLV overflow
            SIG + "21 11 0012 c0a80001 c0a8000b dc04 01bb 03 0003 000000",    // CRC TLV of 3 bytes
        };
        for (String h : bad) {
            HAProxyDecodeRun.Result r = everyWay(hex(h));
            assertNull(r.message(), h);
            assertInstanceOf(HAProxyProtocolException.class, r.onlyError(), h);
        }
    }

    @Test
    void proxy_06_malformedV2HeadersAreRefused() {
        String[] bad = {
            SIG.replace("0a", "0b") + "21 11 000c c0a80001 c0a8000b dc04 01bb",  // signature
            SIG + "11 11 000c c0a80001 c0a8000b dc04 01bb",                    // version 1 in a v2 header
            SIG + "22 11 000c c0a80001 c0a8000b dc04 01bb",                    // command 2
            SIG + "21 13 000c c0a80001 c0a8000b dc04 01bb",                    // family/transport 0x13
            SIG + "21 21 000c c0a80001 c0a8000b dc04 01bb",                    // TCP6 in a TCP4-sized block
            SIG + "21 31 00d8" + "61".repeat(216),                             // Unix path without a NUL
        };
        for (String h : bad) {
            HAProxyDecodeRun.Result r = everyWay(hex(h));
            assertNull(r.message(), h);
            assertInstanceOf(HAProxyProtocolException.class, r.onlyError(), h);
            assertFalse(r.open());
        }
    }

    // ---------------------------------------------------------------- the deadline

    @Test
    void proxy_02_aHeaderNotCompleteInTimeClosesTheConnection() {
        List<Throwable> errors = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(new HAProxyMessageDecoder(2_000, 4096), new ChannelHandler() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                errors.add(cause);
            }
        });
        // A slowloris: a byte now and then, never the whole header.
        for (byte b : ascii("PROXY TCP4 1.2")) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
            channel.advanceTimeBy(100, TimeUnit.MILLISECONDS);
            channel.runScheduledPendingTasks();
        }
        assertTrue(channel.isOpen(), "1.4 s in, within the deadline");
        channel.advanceTimeBy(700, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertFalse(channel.isOpen(), "closed at the deadline");
        assertEquals(1, errors.size());
        assertInstanceOf(HAProxyHeaderTimeoutException.class, errors.get(0));
        assertEquals("no complete PROXY protocol header within 2000 ms (headerTimeoutMillis)", errors.get(0).getMessage());
        channel.finishAndReleaseAll();
    }

    @Test
    void aCompleteHeaderCancelsTheDeadline() {
        List<Throwable> errors = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(new HAProxyMessageDecoder(2_000, 4096), new ChannelHandler() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                errors.add(cause);
            }
        });
        channel.writeInbound(Unpooled.wrappedBuffer(ascii("PROXY UNKNOWN\r\n")));
        channel.advanceTimeBy(5, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertTrue(channel.isOpen());
        assertTrue(errors.isEmpty(), errors.toString());
        channel.finishAndReleaseAll();
    }

    @Test
    void encoderRoundTripsV1AndMessagesCheckTheirFields() {
        HAProxyMessage v1 = HAProxyMessage.v1(HAProxyProxiedProtocol.TCP6, "2001:db8:0:0:0:0:0:1", "0:0:0:0:0:0:0:1",
                1, 2);
        assertEquals("PROXY TCP6 2001:db8:0:0:0:0:0:1 0:0:0:0:0:0:0:1 1 2\r\n",
                new String(encode(v1), StandardCharsets.US_ASCII));
        assertEquals(v1, everyWay(encode(v1)).message());
        assertThrows(IllegalArgumentException.class,
                () -> HAProxyMessage.v1(HAProxyProxiedProtocol.TCP4, "example.com", "1.2.3.4", 1, 2));
        assertThrows(IllegalArgumentException.class, () -> HAProxyMessage.v1(HAProxyProxiedProtocol.UDP4, "1.2.3.4",
                "1.2.3.4", 1, 2));
        assertThrows(IllegalArgumentException.class, () -> new HAProxyMessageDecoder(1000, 100));
    }
}
