package io.rill.handler.codec.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.HttpServerTimeouts;

/**
 * The HTTP/1.1 limits on a client's pace, for HTTP/2 (docs/security-cases.md, case H2-22): idle
 * connections close, request content that does not come gets 408, a field block left unfinished
 * ends the connection; time the server itself holds the client back does not count.
 */
class Http2TimeoutsTest {

    /** idle 60 s, header 20 s, body 20 s at 500 bytes/s; checked every 5 s. */
    private static final Http2Config CONFIG = new Http2Config(true, 100, 65_535, 65_535, 8192, 4096, 1_000_000,
            false, HttpServerTimeouts.DEFAULT);

    private final TextFieldCodec fields = new TextFieldCodec();
    private final EmbeddedChannel server = new EmbeddedChannel(new Http2FrameCodec(CONFIG, fields, fields));
    private final PeerDriver peer = new PeerDriver(server, true);
    private final Http2FrameWriter client = peer.writer;

    @AfterEach
    void release() {
        server.finishAndReleaseAll();
        peer.release();
    }

    @Test
    void h2_22_aConnectionWithoutStreamsClosesAtTheIdleTimeoutWhateverPingsItGets() throws Exception {
        peer.handshake();
        for (int i = 0; i < 11; i++) { // 55 s, a PING every 5 s
            elapse(5);
            peer.inbound(out -> client.writePing(out, 1, false));
        }
        assertTrue(server.isOpen(), "55 s idle is under the limit");
        elapse(5); // within a check's period (5 s) of the limit: the graceful close begins
        List<String> frames = peer.outbound();
        assertEquals("GOAWAY 2147483647 NO_ERROR", frames.get(frames.size() - 2), frames.toString());
        long ping = Long.parseLong(frames.get(frames.size() - 1).substring("PING ".length()));
        peer.inbound(out -> client.writePing(out, ping, true)); // the round trip that times the final GOAWAY
        assertEquals(List.of("GOAWAY 0 NO_ERROR"), peer.outbound());
        assertFalse(server.isOpen());
    }

    @Test
    void aStreamThatStaysOpenKeepsTheConnectionFromIdling() throws Exception {
        peer.handshake();
        peer.inbound(out -> client.writeHeaders(out, 1, PeerDriver.request("GET", "/"), true));
        elapse(120);
        assertTrue(server.isOpen(), "a request the server has not answered yet is not idleness");
        peer.releaseInbound();
    }

    @Test
    void h2_22_requestContentThatNeverComesGets408AndTheStreamEnds() throws Exception {
        peer.handshake();
        peer.inbound(out -> client.writeHeaders(out, 1, PeerDriver.request("POST", "/upload"), false));
        peer.releaseInbound();
        elapse(15);
        assertEquals(List.of(), peer.outbound(), "under the body timeout");
        elapse(10);
        assertEquals(List.of("HEADERS 1 Http2Headers[:status: 408, content-length: 0] END_STREAM", "RST_STREAM 1 NO_ERROR"),
                peer.outbound());
        assertEquals(List.of("RST_STREAM 1 CANCEL"), inbound());
        assertTrue(server.isOpen(), "only the stream ends");
    }

    @Test
    void contentThatStallsAfterTheResponseBeganEndsTheStreamWithCancel() throws Exception {
        peer.handshake();
        peer.inbound(out -> client.writeHeaders(out, 1, PeerDriver.request("POST", "/upload"), false));
        peer.releaseInbound();
        server.writeAndFlush(new Http2HeadersFrame(1, new Http2Headers().status("200"), false));
        peer.outbound();
        elapse(25);
        assertEquals(List.of("RST_STREAM 1 CANCEL"), peer.outbound());
    }

    @Test
    void aTunnelOpenedWithConnectHasNoBodyTimeout() throws Exception {
        peer.handshake();
        peer.inbound(out -> client.writeHeaders(out, 1, new Http2Headers().method("CONNECT").authority("example:443"), false));
        elapse(120);
        assertEquals(List.of(), peer.outbound(), "a WebSocket or TCP tunnel may stay quiet");
        peer.releaseInbound();
    }

    @Test
    void contentAt1000BytesASecondIsNotTimedOut() throws Exception {
        peer.handshake();
        peer.inbound(out -> client.writeHeaders(out, 1, PeerDriver.request("POST", "/upload"), false));
        for (int i = 0; i < 12; i++) { // a minute, 5,000 bytes every 5 s
            elapse(5);
            peer.inbound(out -> {
                client.writeDataHeader(out, 1, 5_000, false);
                out.writeZero(5_000);
            });
            peer.releaseInbound();
        }
        assertEquals(List.of(), peer.outbound());
    }

    @Test
    void contentHeldBackByTheServersShutWindowIsNotTimedOut() throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            client.writeHeaders(out, 1, PeerDriver.request("POST", "/upload"), false);
            client.writeDataHeader(out, 1, 16_384, false);
            out.writeZero(16_384);
            client.writeDataHeader(out, 1, 16_384, false);
            out.writeZero(16_384);
            client.writeDataHeader(out, 1, 16_384, false);
            out.writeZero(16_384);
            client.writeDataHeader(out, 1, 16_383, false);
            out.writeZero(16_383); // the stream window of 65,535 is full: the application has not consumed it
        });
        elapse(120);
        assertEquals(List.of(), peer.outbound(), "the server keeps the window shut: the wait is not the client's");
        peer.releaseInbound();
    }

    @Test
    void aFieldBlockLeftUnfinishedEndsTheConnectionAtTheHeaderTimeout() throws Exception {
        peer.handshake();
        peer.inbound(out -> Http2Frames.writeHeader(out, 4, Http2Frames.HEADERS, 0, 1)); // no END_HEADERS
        peer.inbound(out -> out.writeZero(4));
        elapse(15);
        assertTrue(server.isOpen());
        elapse(10);
        List<String> frames = peer.outbound();
        assertTrue(frames.get(frames.size() - 1).equals("GOAWAY 0 ENHANCE_YOUR_CALM"), frames.toString());
        assertFalse(server.isOpen());
    }

    private void elapse(int seconds) {
        for (int i = 0; i < seconds; i++) {
            server.advanceTimeBy(1, TimeUnit.SECONDS);
            server.runScheduledPendingTasks();
        }
    }

    /** What the codec passed up, as the recorder prints frames. */
    private List<String> inbound() {
        List<String> frames = new ArrayList<>();
        for (Object o; (o = server.readInbound()) != null; ) {
            if (o instanceof Http2ResetFrame reset) {
                frames.add("RST_STREAM " + reset.streamId() + " " + reset.error());
            } else {
                frames.add(o.getClass().getSimpleName());
            }
            ReferenceCountUtil.release(o);
        }
        return frames;
    }
}
