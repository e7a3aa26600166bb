package io.rill.handler.codec.http.websocketx;

import static io.rill.handler.codec.http.websocketx.WebSocketDecodeRun.bytes;
import static io.rill.handler.codec.http.websocketx.WebSocketDecodeRun.client;
import static io.rill.handler.codec.http.websocketx.WebSocketDecodeRun.everyWay;
import static io.rill.handler.codec.http.websocketx.WebSocketDecodeRun.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.Deflater;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelOption;
import io.rill.channel.WriteBufferWaterMark;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.websocketx.extensions.PerMessageDeflateClientNegotiator;
import io.rill.handler.codec.http.websocketx.extensions.PerMessageDeflateServerNegotiator;

/**
 * docs/security-cases.md, cases WS-01 .. WS-12 and WS-18 .. WS-21 (WS-13 .. WS-17, WebSocket over
 * HTTP/2, are in Http2ExtendedConnectTest and Http2WebSocketSecurityCasesTest): each test is named
 * after its case; decoder cases are fed whole, byte by byte and split at every index.
 */
class WebSocketSecurityCasesTest {

    private static final WebSocketDecoderConfig SERVER = WebSocketDecoderConfig.server();
    private static final List<String> PROTOCOL_ERROR = List.of("FAIL 1002", "SENT 1002", "CLOSED");
    private static final List<String> TOO_BIG = List.of("FAIL 1009", "SENT 1009", "CLOSED");
    private static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";

    @Test
    void ws_10_endlessContinuationsEndIn1009() {
        WebSocketDecoderConfig capped = SERVER.withLimits(1024, 4096);
        byte[][] frames = new byte[12][];
        frames[0] = client(0x01, new byte[512]);
        for (int i = 1; i < frames.length; i++) {
            frames[i] = client(0x00, new byte[512]);
        }
        List<String> outcome = everyWay(capped, bytes(frames));
        assertEquals(TOO_BIG, outcome.subList(outcome.size() - 3, outcome.size()));
        assertEquals(8, outcome.size() - 3, "8 × 512 bytes fit in 4096, the 9th frame does not");
    }

    @Test
    void ws_24_aMessageOfEmptyFragmentsEndsIn1009AtItsFrameBound() {
        byte[][] frames = new byte[4100][];
        frames[0] = client(0x01, new byte[0]);
        for (int i = 1; i < frames.length; i++) {
            frames[i] = client(0x00, new byte[0]);
        }
        EmbeddedChannel ch = new EmbeddedChannel(new WebSocketFrameDecoder(SERVER));
        CorruptedWebSocketFrameException e = org.junit.jupiter.api.Assertions.assertThrows(
                CorruptedWebSocketFrameException.class, () -> ch.writeInbound(Unpooled.wrappedBuffer(bytes(frames))));
        assertTrue(e.getMessage().contains("more than 4096 frames"), e.getMessage());
        int fragments = 0;
        for (Object o; (o = ch.readInbound()) != null; fragments++) {
            io.rill.buffer.ReferenceCountUtil.release(o);
        }
        assertEquals(4097, fragments, "the first frame and 4096 continuations, then the bound");
        List<String> sent = new java.util.ArrayList<>();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            io.rill.buffer.ByteBuf b = (io.rill.buffer.ByteBuf) o;
            sent.add(Integer.toHexString(b.getUnsignedByte(0)) + " " + b.getUnsignedShort(2));
            b.release();
        }
        assertEquals(List.of("88 1009"), sent, "one close frame, 1009");
        ch.finishAndReleaseAll();
    }

    @Test
    void ws_11_versionSevenWithoutUpgradeFieldsIsRefused() {
        String answer = handshake("GET /ws HTTP/1.1\r\nHost: a\r\nSec-WebSocket-Version: 7\r\nSec-WebSocket-Key: "
                + KEY + "\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 400 "), answer);
    }

    @Test
    void ws_01_unmaskedClientFrameIs1002() {
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, hex("81 02 48 69")));
    }

    @Test
    void ws_02_giantLengthIsRefusedBeforeAllocating() {
        assertEquals(TOO_BIG, everyWay(SERVER, hex("82 FF 00 00 01 00 00 00 00 00 11 22 33 44")));
    }

    @Test
    void ws_03_topBitAndNonMinimalLengthsAre1002() {
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, hex("82 FF 80 00 00 00 00 00 00 00 11 22 33 44")));
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, hex("82 FE 00 05 11 22 33 44 00 00 00 00 00")));
    }

    @Test
    void ws_04_longOrFragmentedControlFramesAre1002() {
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, bytes(hex("89 FE 00 7E 11 22 33 44"), new byte[126])));
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, hex("09 80 11 22 33 44")));
    }

    @Test
    void ws_05_rsvBitsWithoutExtensionAre1002() {
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, hex("C1 80 11 22 33 44")));
    }

    @Test
    void ws_06_reservedOpcodesAre1002() {
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, hex("83 80 11 22 33 44")));
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, hex("8B 80 11 22 33 44")));
    }

    @Test
    void ws_07_continuationWithoutStartAndNewMessageMidFragmentAre1002() {
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, hex("80 80 11 22 33 44")));
        assertEquals(List.of("TEXT 0 0 ", "FAIL 1002", "SENT 1002", "CLOSED"),
                everyWay(SERVER, hex("01 80 11 22 33 44 01 80 11 22 33 44")));
    }

    @Test
    void ws_08_invalidUtf8IsRefusedWith1007() {
        for (String bad : new String[] {"FF", "ED A0 80", "C0 AF"}) {
            assertEquals(List.of("FAIL 1007", "SENT 1007", "CLOSED"), everyWay(SERVER, client(0x81, hex(bad))), bad);
        }
        assertEquals(List.of("TEXT 0 0 ed", "FAIL 1007", "SENT 1007", "CLOSED"),
                everyWay(SERVER, bytes(client(0x01, hex("ED")), client(0x80, hex("A0 80")))), "split across fragments");
    }

    @Test
    void ws_09_badCloseFramesAre1002Or1007() {
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, client(0x88, hex("03"))));
        for (int status : new int[] {0, 999, 1004, 1005, 1006, 1015, 5000}) {
            assertEquals(PROTOCOL_ERROR, everyWay(SERVER, client(0x88, new byte[] {(byte) (status >> 8), (byte) status})));
        }
        assertEquals(List.of("FAIL 1007", "SENT 1007", "CLOSED"), everyWay(SERVER, client(0x88, hex("03 E8 C0 AF"))));
    }

    @Test
    void ws_10_messageSizeIsCappedAcrossFragments() {
        WebSocketDecoderConfig capped = SERVER.withLimits(100, 150);
        List<String> outcome = everyWay(capped, bytes(client(0x02, new byte[100]), client(0x00, new byte[51])));
        assertEquals(TOO_BIG, outcome.subList(1, 4));
        // The compression-bomb half of WS-10 is WS-18.
    }

    @Test
    void ws_11_badHandshakesAreRefusedWithoutUpgrade() {
        String base = "GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n";
        assertTrue(handshake(base + "Sec-WebSocket-Version: 13\r\n\r\n").startsWith("HTTP/1.1 400 "), "no key");
        assertTrue(handshake(base + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: c2hvcnQ=\r\n\r\n")
                .startsWith("HTTP/1.1 400 "), "key not 16 bytes");
        assertTrue(handshake(base + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: !!!!!!!!!!!!!!!!!!!!!!==\r\n\r\n")
                .startsWith("HTTP/1.1 400 "), "key not base64");
        String wrongVersion = handshake(base + "Sec-WebSocket-Version: 8\r\nSec-WebSocket-Key: " + KEY + "\r\n\r\n");
        assertTrue(wrongVersion.startsWith("HTTP/1.1 426 "), wrongVersion);
        assertTrue(wrongVersion.toLowerCase().contains("sec-websocket-version: 13\r\n"), wrongVersion);
        assertTrue(handshake("GET /ws HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Key: " + KEY + "\r\n\r\n").startsWith("HTTP/1.1 400 "), "no Upgrade");
        assertTrue(handshake("POST /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " + KEY + "\r\nContent-Length: 0\r\n\r\n")
                .startsWith("HTTP/1.1 400 "), "not GET");
        assertTrue(handshake(base + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " + KEY
                + "\r\nOrigin: https://evil.example\r\n\r\n").startsWith("HTTP/1.1 403 "), "origin refused");
        assertTrue(handshake(base + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " + KEY
                + "\r\nOrigin: https://good.example\r\n\r\n").startsWith("HTTP/1.1 101 "), "origin accepted");
    }

    @Test
    void ws_12_pingFloodFromAPeerThatDoesNotReadCostsOnePong() {
        FlushGate gate = new FlushGate();
        WebSocketServerProtocolHandlerTest.App app = new WebSocketServerProtocolHandlerTest.App();
        EmbeddedChannel ch = new EmbeddedChannel(gate, new HttpServerCodec(),
                WebSocketServerProtocolHandler.builder("/ws").build(), app);
        ch.config().setOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(64, 128));
        ch.writeInbound(Unpooled.copiedBuffer(("GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade"
                + "\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " + KEY + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1)));
        WebSocketServerProtocolHandlerTest.written(ch);
        gate.closed = true; // the peer stops reading: nothing leaves the outbound buffer
        byte[] ping = client(0x89, "0123456789");
        ByteBuf flood = Unpooled.buffer();
        for (int i = 0; i < 10_000; i++) {
            flood.writeBytes(ping);
        }
        ch.writeInbound(flood);
        assertFalse(ch.isWritable());
        assertTrue(ch.bytesBeforeWritable() < 256, "pending pong bytes: " + ch.bytesBeforeWritable());
        gate.closed = false;
        ch.flush();
        int pongs = 0;
        for (ByteBuf b; (b = ch.readOutbound()) != null; b.release()) {
            pongs++;
        }
        assertTrue(pongs > 0 && pongs < 20, pongs + " pongs for 10,000 pings");
        assertNotNull(ch.pipeline().get(WebSocketFrameDecoder.class));
        ch.finishAndReleaseAll();
    }

    /** Holds flushes while closed, like a peer whose receive window is full. */
    private static final class FlushGate implements ChannelHandler {
        boolean closed;

        @Override
        public void flush(ChannelHandlerContext ctx) {
            if (!closed) {
                ctx.flush();
            }
        }
    }

    /** The server's answer to {@code request}; an origin check accepts only https://good.example (or none). */
    @Test
    void ws_18_compressionBombEndsIn1009WithBoundedMemory() {
        // 1 MiB of zeros deflates to about 1 KiB: the frame passes every frame limit, its inflation may not.
        byte[] bomb = deflated(new byte[1 << 20]);
        assertTrue(bomb.length < 2048, bomb.length + " compressed bytes");
        WebSocketServerProtocolHandlerTest.App app = new WebSocketServerProtocolHandlerTest.App();
        EmbeddedChannel ch = compressingServer(app, 64 * 1024);
        ch.writeInbound(Unpooled.wrappedBuffer(client(0xC2, bomb)));
        assertEquals("880203f1", WebSocketServerProtocolHandlerTest.writtenHex(ch), "close 1009");
        assertFalse(ch.isOpen());
        assertEquals(List.of("complete /ws null"), app.seen, "nothing inflated reached the application");
        ch.finishAndReleaseAll();
    }

    @Test
    void ws_19_rsv1OnContinuationOrControlFramesIs1002() {
        for (byte[] input : new byte[][] {
            bytes(client(0x41, hex("f2 48 cd")), client(0xC0, hex("c9 c9 07 00"))), // RSV1 on a continuation
            client(0xC9, new byte[0]), // RSV1 on a ping
            client(0xC8, hex("03 e8")), // RSV1 on a close
        }) {
            EmbeddedChannel ch = compressingServer(new WebSocketServerProtocolHandlerTest.App(), 64 * 1024);
            ch.writeInbound(Unpooled.wrappedBuffer(input));
            assertEquals("880203ea", WebSocketServerProtocolHandlerTest.writtenHex(ch), "close 1002");
            assertFalse(ch.isOpen());
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void ws_20_badWindowBitsOffersAreDeclinedAndBadAnswersFailTheHandshake() {
        for (String offer : new String[] {"server_max_window_bits=7", "server_max_window_bits=16",
                "server_max_window_bits", "client_max_window_bits=99999999999", "server_max_window_bits=-9",
                "server_max_window_bits=\"08\"", "client_max_window_bits=1e1"}) {
            assertTrue(PerMessageDeflateServerNegotiator.acceptAll().negotiate(List.of("permessage-deflate; " + offer))
                    .isEmpty(), offer);
        }
        PerMessageDeflateClientNegotiator client = PerMessageDeflateClientNegotiator.builder().clientMaxWindowBits(10).build();
        for (String answer : new String[] {"client_max_window_bits=16", "client_max_window_bits=11",
                "server_max_window_bits=7", "client_max_window_bits"}) {
            assertThrowsHandshake(() -> client.negotiate(List.of("permessage-deflate; " + answer)), answer);
        }
    }

    @Test
    void ws_21_aReadFullOfPingsGetsABoundedNumberOfPongs() {
        WebSocketServerProtocolHandlerTest.App app = new WebSocketServerProtocolHandlerTest.App();
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), WebSocketServerProtocolHandler.builder("/ws").build(), app);
        WebSocketServerProtocolHandlerTest.send(ch, WebSocketServerProtocolHandlerTest.UPGRADE + "\r\n");
        WebSocketServerProtocolHandlerTest.written(ch);
        ByteBuf flood = Unpooled.buffer();
        for (int i = 0; i < 10_000; i++) {
            flood.writeBytes(client(0x89, Integer.toString(i)));
        }
        ch.writeInbound(flood); // one read burst, and the peer reads everything we send
        List<String> pongs = new java.util.ArrayList<>();
        for (ByteBuf b; (b = ch.readOutbound()) != null; b.release()) {
            pongs.add(b.toString(b.readerIndex() + 2, b.readableBytes() - 2, StandardCharsets.US_ASCII));
        }
        assertEquals(WebSocketControlHandler.PONGS_PER_READ + 1, pongs.size(), "the first pings, then only the latest");
        assertEquals("0", pongs.get(0));
        assertEquals("9999", pongs.get(pongs.size() - 1));
        assertTrue(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    private static void assertThrowsHandshake(Runnable r, String what) {
        try {
            r.run();
        } catch (WebSocketHandshakeException expected) {
            return;
        }
        throw new AssertionError("accepted: " + what);
    }

    /** A server with permessage-deflate (messages inflate up to {@code maxInflated}), after a handshake offering it. */
    private static EmbeddedChannel compressingServer(WebSocketServerProtocolHandlerTest.App app, int maxInflated) {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), WebSocketServerProtocolHandler.builder("/ws")
                .extensions(PerMessageDeflateServerNegotiator.builder().maxInflatedMessage(maxInflated).build()).build(), app);
        WebSocketServerProtocolHandlerTest.send(ch, WebSocketServerProtocolHandlerTest.UPGRADE
                + "Sec-WebSocket-Extensions: permessage-deflate\r\n\r\n");
        String answer = WebSocketServerProtocolHandlerTest.written(ch);
        assertTrue(answer.contains("sec-websocket-extensions: permessage-deflate\r\n"), answer);
        return ch;
    }

    private static byte[] deflated(byte[] data) {
        Deflater d = new Deflater(9, true);
        d.setInput(data);
        byte[] out = new byte[data.length + 64];
        int n = d.deflate(out, 0, out.length, Deflater.SYNC_FLUSH);
        d.end();
        return java.util.Arrays.copyOf(out, n - 4);
    }

    private static String handshake(String request) {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), WebSocketServerProtocolHandler.builder("/ws")
                .originCheck(origin -> origin == null || origin.equals("https://good.example")).build(),
                new WebSocketServerProtocolHandlerTest.App());
        ch.writeInbound(Unpooled.copiedBuffer(request.getBytes(StandardCharsets.ISO_8859_1)));
        String answer = WebSocketServerProtocolHandlerTest.written(ch);
        if (!answer.startsWith("HTTP/1.1 101")) {
            assertFalse(ch.isOpen(), "closed after a refusal");
            assertTrue(ch.pipeline().get(WebSocketFrameDecoder.class) == null, "no upgrade");
        }
        ch.finishAndReleaseAll();
        return answer;
    }
}
