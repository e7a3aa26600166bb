package io.rill.handler.codec.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.handler.codec.http.HttpServerTimeouts;
import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.util.concurrent.Future;

/**
 * RFC 8441 at the frame level: SETTINGS_ENABLE_CONNECT_PROTOCOL and the {@code :protocol}
 * pseudo-header, on a server that advertises the setting, one that does not, and a client.
 * docs/security-cases.md, cases WS-13, WS-14 and WS-15 are the tests named after them.
 */
class Http2ExtendedConnectTest {

    private static final Http2Config PLAIN = new Http2Config(true, 100, 65_535, 65_535, 8192, 4096, 10_000);
    private static final Http2Config EXTENDED = new Http2Config(true, 100, 65_535, 65_535, 8192, 4096, 10_000, true, HttpServerTimeouts.NONE);
    private static final Http2Config CLIENT = new Http2Config(false, 100, 65_535, 65_535, 8192, 4096, 10_000);

    private final TextFieldCodec fields = new TextFieldCodec();
    private EmbeddedChannel channel;
    private PeerDriver peer;

    private PeerDriver start(Http2Config config, boolean peerIsClient) {
        channel = new EmbeddedChannel(new Http2FrameCodec(config, fields, fields));
        peer = new PeerDriver(channel, peerIsClient);
        return peer;
    }

    @AfterEach
    void release() {
        if (channel != null) {
            channel.finishAndReleaseAll();
            peer.release();
        }
    }

    private static Http2Headers websocketConnect() {
        return new Http2Headers().method("CONNECT").set(Http2Headers.PROTOCOL, "websocket").scheme("https")
                .authority("server.example").path("/chat").set("sec-websocket-version", "13");
    }

    /** The request never goes up; the application hears of the stream only as reset. */
    private void assertRefusedUpward(int streamId) {
        Object up = channel.readInbound();
        assertEquals(new Http2ResetFrame(streamId, Http2Error.PROTOCOL_ERROR), up);
    }

    @Test
    void aServerAdvertisesTheSettingOnlyWhenConfigured() throws Exception {
        assertEquals("SETTINGS Http2Settings[SETTINGS_MAX_CONCURRENT_STREAMS=100, SETTINGS_INITIAL_WINDOW_SIZE=65535,"
                + " SETTINGS_MAX_HEADER_LIST_SIZE=8192, SETTINGS_ENABLE_CONNECT_PROTOCOL=1]",
                start(EXTENDED, true).handshake().get(0));
        assertFalse(PLAIN.localSettings().has(Http2Settings.ENABLE_CONNECT_PROTOCOL));
        assertFalse(new Http2Config(false, 100, 65_535, 65_535, 8192, 4096, 10_000, true, HttpServerTimeouts.NONE).localSettings()
                .has(Http2Settings.ENABLE_CONNECT_PROTOCOL), "only a server advertises it");
    }

    @Test
    void anExtendedConnectIsPassedUpWhenTheServerAdvertisedTheSetting() throws Exception {
        start(EXTENDED, true).handshake();
        peer.inbound(out -> peer.writer.writeHeaders(out, 1, websocketConnect(), false));
        Http2HeadersFrame request = channel.readInbound();
        assertEquals("websocket", request.headers().protocol().toString());
        assertEquals(List.of(), peer.outbound());
    }

    @Test
    void ws_13_protocolWithoutTheSettingIsAMalformedRequest() throws Exception {
        start(PLAIN, true).handshake();
        peer.inbound(out -> peer.writer.writeHeaders(out, 1, websocketConnect(), false));
        assertRefusedUpward(1);
        assertEquals(List.of("RST_STREAM 1 PROTOCOL_ERROR"), peer.outbound());
        // a stream error: the connection goes on
        peer.inbound(out -> peer.writer.writeHeaders(out, 3, PeerDriver.request("GET", "/"), true));
        assertEquals("/", channel.<Http2HeadersFrame>readInbound().headers().path().toString());
    }

    @Test
    void ws_14_protocolOnAnythingButConnectIsAMalformedRequest() throws Exception {
        start(EXTENDED, true).handshake();
        Http2Headers get = PeerDriver.request("GET", "/chat").set(Http2Headers.PROTOCOL, "websocket");
        peer.inbound(out -> peer.writer.writeHeaders(out, 1, get, true));
        assertRefusedUpward(1);
        assertEquals(List.of("RST_STREAM 1 PROTOCOL_ERROR"), peer.outbound());
    }

    @Test
    void ws_15_anExtendedConnectWithoutPathOrSchemeIsAMalformedRequest() throws Exception {
        start(EXTENDED, true).handshake();
        Http2Headers noPath = new Http2Headers().method("CONNECT").set(Http2Headers.PROTOCOL, "websocket")
                .scheme("https").authority("server.example");
        Http2Headers noScheme = new Http2Headers().method("CONNECT").set(Http2Headers.PROTOCOL, "websocket")
                .authority("server.example").path("/chat");
        peer.inbound(out -> {
            peer.writer.writeHeaders(out, 1, noPath, false);
            peer.writer.writeHeaders(out, 3, noScheme, false);
        });
        assertRefusedUpward(1);
        assertRefusedUpward(3);
        assertEquals(List.of("RST_STREAM 1 PROTOCOL_ERROR", "RST_STREAM 3 PROTOCOL_ERROR"), peer.outbound());
    }

    @Test
    void aPlainConnectStillForbidsSchemeAndPath() throws Exception {
        start(EXTENDED, true).handshake();
        Http2Headers plain = new Http2Headers().method("CONNECT").authority("server.example:443").path("/");
        peer.inbound(out -> peer.writer.writeHeaders(out, 1, plain, false));
        assertEquals(List.of("RST_STREAM 1 PROTOCOL_ERROR"), peer.outbound());
    }

    @Test
    void aClientReadsTheServersSettingAndRefusesItsWithdrawal() throws Exception {
        start(CLIENT, false);
        Http2FrameCodec codec = channel.pipeline().get(Http2FrameCodec.class);
        Future<Void> settings = codec.peerSettingsReceived();
        assertFalse(settings.isDone());
        peer.outbound(); // the client's preface and SETTINGS
        peer.inbound(out -> peer.writer.writeSettings(out, new Http2Settings().put(Http2Settings.ENABLE_CONNECT_PROTOCOL, 1)));
        assertTrue(settings.isSuccess());
        assertTrue(codec.peerAllowsExtendedConnect());
        assertEquals(List.of("SETTINGS ACK"), peer.outbound());

        peer.inbound(out -> peer.writer.writeSettings(out, new Http2Settings().put(Http2Settings.ENABLE_CONNECT_PROTOCOL, 0)));
        assertEquals(List.of("GOAWAY 0 PROTOCOL_ERROR"), peer.outbound());
    }

    @Test
    void aClientWhoseServerSaysNothingDoesNotAllowExtendedConnect() throws Exception {
        start(CLIENT, false);
        Http2FrameCodec codec = channel.pipeline().get(Http2FrameCodec.class);
        peer.outbound();
        peer.inbound(out -> peer.writer.writeSettings(out, new Http2Settings()));
        assertTrue(codec.peerSettingsReceived().isSuccess());
        assertFalse(codec.peerAllowsExtendedConnect());
    }

    @Test
    void theSettingsFutureFailsWhenTheConnectionClosesFirst() {
        start(CLIENT, false);
        Future<Void> settings = channel.pipeline().get(Http2FrameCodec.class).peerSettingsReceived();
        channel.close();
        assertTrue(settings.isDone());
        assertFalse(settings.isSuccess());
    }

    @Test
    void hpackCarriesProtocolAsALiteralName() throws Http2Exception {
        HpackEncoder encoder = new HpackEncoder(HpackEncoder.SensitivityPolicy.DEFAULT);
        HpackDecoder decoder = new HpackDecoder(8192, 4096);
        for (int i = 0; i < 2; i++) { // the second time from the dynamic table
            ByteBuf block = Unpooled.buffer();
            try {
                encoder.encode(websocketConnect(), block);
                byte[] bytes = new byte[block.readableBytes()];
                block.readBytes(bytes);
                Http2Headers decoded = HpackTestSupport.decode(decoder, bytes);
                assertEquals("websocket", decoded.protocol().toString());
                Http2HeaderChecks.validateRequest(1, decoded);
            } finally {
                block.release();
            }
        }
    }
}
