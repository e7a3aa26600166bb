package io.rill.handler.codec.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * The HTTP/2 attacks of docs/security-cases.md (section H2), each at the frame level: every one
 * ends in GOAWAY with the code the catalogue names, with bounded work and memory, and nothing leaks.
 */
class Http2AttackTest {

    private static final Http2Config CONFIG = new Http2Config(true, 100, 65_535, 65_535, 8192, 4096, 10_000);

    private final TextFieldCodec fields = new TextFieldCodec();
    private final EmbeddedChannel server = new EmbeddedChannel(new Http2FrameCodec(CONFIG, fields, fields));
    private final PeerDriver peer = new PeerDriver(server, true);
    private final Http2FrameWriter attacker = peer.writer;

    @AfterEach
    void release() {
        server.finishAndReleaseAll();
        peer.release();
    }

    @Test
    void h2_04_rapidResetEndsInEnhanceYourCalm() throws Exception {
        peer.handshake();
        int streamId = 1;
        for (int i = 0; i < 250 && server.isOpen(); i++, streamId += 2) {
            int id = streamId;
            peer.inbound(out -> {
                attacker.writeHeaders(out, id, request(), true);
                attacker.writeRstStream(out, id, Http2Error.CANCEL);
            });
            peer.releaseInbound();
        }
        assertGoAway(Http2Error.ENHANCE_YOUR_CALM);
        assertTrue(streamId < 2 * 202 + 1, "ended after about 200 resets, at stream " + streamId);
    }

    @Test
    void h2_05_madeYouResetEndsInEnhanceYourCalm() throws Exception {
        peer.handshake();
        int streamId = 1;
        for (int i = 0; i < 250 && server.isOpen(); i++, streamId += 2) {
            int id = streamId;
            peer.inbound(out -> {
                attacker.writeHeaders(out, id, request(), false);
                attacker.writeWindowUpdate(out, id, 0); // a stream error the server must answer with RST_STREAM
            });
            peer.releaseInbound();
        }
        assertGoAway(Http2Error.ENHANCE_YOUR_CALM);
        assertTrue(streamId < 2 * 202 + 1, "ended after about 200 provoked resets, at stream " + streamId);
    }

    @Test
    void p03_h2_06_emptyContinuationFloodEndsAfterAFewFrames() throws Exception {
        peer.handshake();
        ByteBuf out = Unpooled.buffer();
        Http2Frames.writeHeader(out, 0, Http2Frames.HEADERS, 0, 1); // no END_HEADERS
        for (int i = 0; i < 10_000; i++) {
            Http2Frames.writeHeader(out, 0, Http2Frames.CONTINUATION, 0, 1);
        }
        server.writeInbound(out);
        assertGoAway(Http2Error.ENHANCE_YOUR_CALM);
    }

    @Test
    void p03_continuationFloodWithDataEndsAtTheFieldBlockBound() throws Exception {
        peer.handshake();
        ByteBuf out = Unpooled.buffer();
        Http2Frames.writeHeader(out, 0, Http2Frames.HEADERS, 0, 1);
        for (int i = 0; i < 100; i++) {
            Http2Frames.writeHeader(out, 1000, Http2Frames.CONTINUATION, 0, 1);
            out.writeZero(1000);
        }
        server.writeInbound(out);
        assertGoAway(Http2Error.ENHANCE_YOUR_CALM);
    }

    @Test
    void h2_01_pingFloodEndsInEnhanceYourCalm() throws Exception {
        flood(out -> attacker.writePing(out, 7, false));
    }

    @Test
    void p04_settingsFloodEndsInEnhanceYourCalm() throws Exception {
        flood(out -> attacker.writeSettings(out, new Http2Settings()));
    }

    @Test
    void h2_01_emptyDataFloodEndsInEnhanceYourCalm() throws Exception {
        peer.handshake();
        peer.inbound(out -> attacker.writeHeaders(out, 1, request(), false));
        peer.releaseInbound();
        floodAfterHandshake(out -> attacker.writeDataHeader(out, 1, 0, false));
    }

    @Test
    void priorityFloodEndsInEnhanceYourCalm() throws Exception {
        flood(out -> {
            Http2Frames.writeHeader(out, 5, Http2Frames.PRIORITY, 0, 3);
            out.writeInt(1);
            out.writeByte(16);
        });
    }

    @Test
    void windowUpdateDribbleEndsInEnhanceYourCalm() throws Exception {
        flood(out -> attacker.writeWindowUpdate(out, 0, 1));
    }

    @Test
    void h2_07_streamsBeyondTheAdvertisedLimitAreRefused() throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            for (int id = 1; id <= 201; id += 2) {
                attacker.writeHeaders(out, id, request(), false);
            }
        });
        peer.releaseInbound();
        assertEquals(List.of("RST_STREAM 201 REFUSED_STREAM"), peer.outbound());
        assertTrue(server.isOpen());
    }

    @Test
    void p05_aZeroWindowStallEndsTheConnection() throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            attacker.writeSettings(out, new Http2Settings().put(Http2Settings.INITIAL_WINDOW_SIZE, 0));
            attacker.writeHeaders(out, 1, request(), true);
        });
        peer.releaseInbound();
        server.write(new Http2HeadersFrame(1, new Http2Headers().status("200"), false));
        server.writeAndFlush(new Http2DataFrame(1, Unpooled.wrappedBuffer(new byte[10_000]), true));
        assertEquals(List.of("SETTINGS ACK", "HEADERS 1 Http2Headers[:status: 200]"), peer.outbound());
        for (int i = 0; i < 4 && server.isOpen(); i++) {
            server.advanceTimeBy(15, TimeUnit.SECONDS);
            server.runScheduledPendingTasks();
        }
        assertGoAway(Http2Error.ENHANCE_YOUR_CALM);
    }

    @Test
    void h2_20_goAwayFloodEndsInEnhanceYourCalm() throws Exception {
        flood(out -> attacker.writeGoAway(out, 0, Http2Error.NO_ERROR, ""));
    }

    @Test
    void h2_20_unsolicitedSettingsAckFloodEndsInEnhanceYourCalm() throws Exception {
        flood(attacker::writeSettingsAck); // the handshake acknowledged our only SETTINGS already
    }

    @Test
    void h2_21_connectionWindowUpdatesThatLetNothingOutDoNotKeepAStallAlive() throws Exception {
        oneByteWindowUpdatesEvery10SecondsEndInGoAway(0); // the stream's window stays shut
    }

    @Test
    void h2_21_aByteAtATimeDoesNotKeepAStallAlive() throws Exception {
        oneByteWindowUpdatesEvery10SecondsEndInGoAway(1); // the stream's window opens a byte at a time
    }

    private void oneByteWindowUpdatesEvery10SecondsEndInGoAway(int streamId) throws Exception {
        stalledResponse();
        for (int i = 0; i < 6 && server.isOpen(); i++) {
            server.advanceTimeBy(10, TimeUnit.SECONDS);
            peer.inbound(out -> attacker.writeWindowUpdate(out, streamId, 1));
            server.runScheduledPendingTasks();
        }
        assertGoAway(Http2Error.ENHANCE_YOUR_CALM);
    }

    @Test
    void aSlowReaderThatTakes4KiBEvery5SecondsIsNotAStall() throws Exception {
        stalledResponse(200_000);
        for (int i = 0; i < 24; i++) { // two minutes
            server.advanceTimeBy(5, TimeUnit.SECONDS);
            peer.inbound(out -> attacker.writeWindowUpdate(out, 1, 4096));
            server.runScheduledPendingTasks();
            peer.outbound();
        }
        assertTrue(server.isOpen(), "a reader at 800 bytes/s is slow, not stalled");
        peer.inbound(out -> attacker.writeWindowUpdate(out, 1, 1 << 20)); // the rest goes out
        assertTrue(peer.outbound().get(0).startsWith("DATA 1"));
    }

    /** A response of 10,000 bytes to a client whose stream windows are shut (SETTINGS_INITIAL_WINDOW_SIZE 0). */
    private void stalledResponse() throws Exception {
        stalledResponse(10_000);
    }

    private void stalledResponse(int bytes) throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            attacker.writeSettings(out, new Http2Settings().put(Http2Settings.INITIAL_WINDOW_SIZE, 0));
            attacker.writeWindowUpdate(out, 0, 1 << 20); // the connection window is not what stalls
            attacker.writeHeaders(out, 1, request(), true);
        });
        peer.releaseInbound();
        server.write(new Http2HeadersFrame(1, new Http2Headers().status("200"), false));
        server.writeAndFlush(new Http2DataFrame(1, Unpooled.wrappedBuffer(new byte[bytes]), true));
        assertEquals(List.of("SETTINGS ACK", "HEADERS 1 Http2Headers[:status: 200]"), peer.outbound());
    }

    @Test
    void p06_streamIdsMustGrowAndBeOdd() throws Exception {
        peer.handshake();
        peer.inbound(out -> attacker.writeHeaders(out, Integer.MAX_VALUE, request(), true));
        peer.releaseInbound();
        assertTrue(server.isOpen(), "the highest stream id is allowed");
        peer.inbound(out -> attacker.writeHeaders(out, 3, request(), true));
        assertGoAway(Http2Error.PROTOCOL_ERROR);
    }

    @Test
    void p06_anEvenStreamFromAClientIsAProtocolError() throws Exception {
        peer.handshake();
        peer.inbound(out -> attacker.writeHeaders(out, 2, request(), true));
        assertGoAway(Http2Error.PROTOCOL_ERROR);
    }

    @Test
    void p07_aFrameLargerThanTheMaximumIsAFrameSizeError() throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            attacker.writeHeaders(out, 1, request(), false);
            attacker.writeDataHeader(out, 1, 16_385, false);
            out.writeZero(16_385);
        });
        assertGoAway(Http2Error.FRAME_SIZE_ERROR);
    }

    @Test
    void p09_paddingAsLongAsThePayloadIsAProtocolError() throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            attacker.writeHeaders(out, 1, request(), false);
            Http2Frames.writeHeader(out, 4, Http2Frames.DATA, Http2Frames.FLAG_PADDED, 1);
            out.writeByte(4);
            out.writeZero(3);
        });
        assertGoAway(Http2Error.PROTOCOL_ERROR);
    }

    @Test
    void p11_aConnectionWindowBeyondTwoToTheThirtyOneIsAFlowControlError() throws Exception {
        peer.handshake();
        peer.inbound(out -> attacker.writeWindowUpdate(out, 0, Integer.MAX_VALUE));
        assertGoAway(Http2Error.FLOW_CONTROL_ERROR);
    }

    @Test
    void p12_aSecondGoAwayMustNotRaiseTheLastStream() throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            attacker.writeGoAway(out, 1, Http2Error.NO_ERROR, "");
            attacker.writeGoAway(out, 3, Http2Error.NO_ERROR, "");
        });
        peer.releaseInbound();
        assertGoAway(Http2Error.PROTOCOL_ERROR);
    }

    @Test
    void h2_02_contentLengthMismatchResetsTheStream() throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            attacker.writeHeaders(out, 1, request().add("content-length", "0"), false);
            attacker.writeDataHeader(out, 1, 5, true);
            out.writeBytes("GET /".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            attacker.writeHeaders(out, 3, request().add("content-length", "10"), true);
        });
        peer.releaseInbound();
        assertEquals(List.of("RST_STREAM 1 PROTOCOL_ERROR", "RST_STREAM 3 PROTOCOL_ERROR"), peer.outbound());
    }

    // ---------------------------------------------------------------- helpers

    /** 1,200 copies of one frame after the handshake: more than the flood budget allows. */
    private void flood(PeerDriver.Frames frame) throws Exception {
        peer.handshake();
        floodAfterHandshake(frame);
    }

    private void floodAfterHandshake(PeerDriver.Frames frame) throws Exception {
        peer.inbound(out -> {
            for (int i = 0; i < 1_200; i++) {
                frame.write(out);
            }
        });
        peer.releaseInbound();
        assertGoAway(Http2Error.ENHANCE_YOUR_CALM);
    }

    private void assertGoAway(Http2Error error) throws Exception {
        peer.releaseInbound();
        List<String> frames = peer.outbound();
        String last = frames.isEmpty() ? "nothing" : frames.get(frames.size() - 1);
        assertTrue(last.startsWith("GOAWAY ") && last.endsWith(" " + error), "expected GOAWAY " + error + ", got " + frames);
        assertFalse(server.isOpen());
    }

    private static Http2Headers request() {
        return new Http2Headers().method("GET").scheme("http").authority("localhost").path("/");
    }
}
