package io.rill.handler.codec.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.HttpServerTimeouts;

/**
 * What a connection may hold (docs/security-cases.md, cases H2-23 to H2-25): its own budget
 * ({@code maxHeldBytes}), the server's ({@link Http2ServerBudget}), and content counted at its size.
 */
class Http2MemoryBudgetTest {

    private final TextFieldCodec fields = new TextFieldCodec();
    private final List<Connection> connections = new ArrayList<>();

    /** A server connection and the peer that drives it. */
    private final class Connection {
        final Http2FrameCodec codec;
        final EmbeddedChannel channel;
        final PeerDriver peer;
        final List<Http2StreamWritabilityChanged> writability = new ArrayList<>();

        Connection(long maxHeldBytes, Http2ServerBudget server) throws Exception {
            codec = new Http2FrameCodec(new Http2Config(true, 100, 65_535, 65_535, 8192, 4096, 10_000, false,
                    HttpServerTimeouts.NONE, maxHeldBytes, server), fields, fields);
            channel = new EmbeddedChannel(codec, new ChannelHandler() {
                @Override
                public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                    if (evt instanceof Http2StreamWritabilityChanged changed) {
                        writability.add(changed);
                    }
                }
            });
            peer = new PeerDriver(channel, true);
            connections.add(this);
            peer.handshake();
        }

        /** The peer shuts its windows and opens stream 1 with a request whose body is to come. */
        void zeroWindowRequest() throws Exception {
            peer.inbound(out -> {
                peer.writer.writeSettings(out, new Http2Settings().put(Http2Settings.INITIAL_WINDOW_SIZE, 0));
                peer.writer.writeHeaders(out, 1, PeerDriver.request("POST", "/echo"), false);
            });
            peer.releaseInbound();
        }

        /** The application answers stream 1 with {@code bytes} of content, which must wait for the peer's window. */
        void answer(int bytes) {
            channel.write(new Http2HeadersFrame(1, new Http2Headers().status("200"), false));
            channel.writeAndFlush(new Http2DataFrame(1, Unpooled.wrappedBuffer(new byte[bytes]), false));
        }

        List<String> newStream(int id) throws Exception {
            peer.inbound(out -> peer.writer.writeHeaders(out, id, PeerDriver.request("GET", "/"), true));
            peer.releaseInbound();
            return peer.outbound();
        }
    }

    @AfterEach
    void release() {
        for (Connection c : connections) {
            c.channel.finishAndReleaseAll();
            c.peer.release();
        }
    }

    @Test
    void h2_24_aConnectionOverItsBudgetGrantsNoWindowItsStreamsAreNotWritableAndNewStreamsAreRefused() throws Exception {
        Connection c = new Connection(100_000, null);
        c.zeroWindowRequest();
        c.answer(120_000); // queued: the peer's window is shut
        assertEquals(List.of(new Http2StreamWritabilityChanged(1, false)), c.writability);
        assertFalse(c.codec.isStreamWritable(1));
        c.peer.outbound();

        assertTrue(c.newStream(3).contains("RST_STREAM 3 REFUSED_STREAM"), "a new stream is refused over the budget");

        // The peer sends 40,000 bytes on stream 1 and the application consumes them: the stream's
        // credit goes back, the connection's does not while the connection is over its budget.
        c.peer.inbound(out -> {
            c.peer.writer.writeDataHeader(out, 1, 16_000, false);
            out.writeZero(16_000);
            c.peer.writer.writeDataHeader(out, 1, 16_000, false);
            out.writeZero(16_000);
            c.peer.writer.writeDataHeader(out, 1, 8_000, false);
            out.writeZero(8_000);
        });
        for (Object frame; (frame = c.channel.readInbound()) != null; ) {
            Http2DataFrame data = (Http2DataFrame) frame;
            c.channel.write(new Http2WindowUpdateFrame(1, data.flowControlled()));
            data.release();
        }
        c.channel.flush();
        List<String> sent = c.peer.outbound();
        assertTrue(sent.contains("WINDOW_UPDATE 1 40000"), sent.toString());
        assertFalse(sent.stream().anyMatch(f -> f.startsWith("WINDOW_UPDATE 0 ")), "connection credit withheld: " + sent);

        // The peer opens its windows: the answer leaves, the connection is back under its budget,
        // the withheld credit goes back and the stream is writable again.
        c.peer.inbound(out -> {
            c.peer.writer.writeSettings(out, new Http2Settings().put(Http2Settings.INITIAL_WINDOW_SIZE, 200_000));
            c.peer.writer.writeWindowUpdate(out, 0, 200_000);
        });
        c.peer.releaseInbound();
        sent = c.peer.outbound();
        assertTrue(sent.contains("WINDOW_UPDATE 0 40000"), sent.toString());
        assertEquals(120_000, sent.stream().filter(f -> f.startsWith("DATA 1 "))
                .mapToInt(f -> Integer.parseInt(f.split(" ")[2])).sum());
        assertEquals(new Http2StreamWritabilityChanged(1, true), c.writability.get(c.writability.size() - 1));
        assertTrue(c.codec.isStreamWritable(1));
        assertFalse(c.newStream(5).contains("RST_STREAM 5 REFUSED_STREAM"), "new streams are accepted again");
    }

    @Test
    void h2_25_overTheServerBudgetTheGreediestConnectionIsClosedAndOnlyConnectionsHoldingContentAreRefused() throws Exception {
        Http2ServerBudget budget = new Http2ServerBudget(150_000);
        Connection greedy = new Connection(1 << 20, budget);
        Connection modest = new Connection(1 << 20, budget);
        Connection idle = new Connection(1 << 20, budget);
        greedy.zeroWindowRequest();
        greedy.answer(100_000);
        assertEquals(100_000, budget.heldBytes());
        modest.zeroWindowRequest();
        modest.answer(60_000); // 160,000 in all: over
        assertEquals(160_000, budget.heldBytes());

        // Until the greediest has closed (on its own event loop), a connection holding content gets
        // no new stream; one holding nothing does.
        assertTrue(modest.newStream(3).contains("RST_STREAM 3 REFUSED_STREAM"));
        idle.peer.inbound(out -> idle.peer.writer.writeHeaders(out, 1, PeerDriver.request("GET", "/"), true));
        Object request = idle.channel.readInbound();
        assertTrue(request instanceof Http2HeadersFrame, "the connection holding nothing is served: " + request);

        greedy.channel.runPendingTasks();
        List<String> sent = greedy.peer.outbound();
        assertEquals("GOAWAY 1 ENHANCE_YOUR_CALM", sent.get(sent.size() - 1));
        assertFalse(greedy.channel.isOpen());
        assertTrue(modest.channel.isOpen());
        modest.channel.runPendingTasks();
        assertTrue(modest.channel.isOpen(), "only the greediest is closed");
        assertEquals(60_000, budget.heldBytes(), "the closed connection's content is no longer counted");
        assertFalse(modest.newStream(5).contains("RST_STREAM 5 REFUSED_STREAM"), "back under the budget");

        modest.peer.inbound(out -> modest.peer.writer.writeRstStream(out, 1, Http2Error.CANCEL));
        modest.peer.releaseInbound();
        assertEquals(0, budget.heldBytes(), "a reset stream's queued content is no longer counted");
    }

    @Test
    void h2_25_connectionsClosedForTheServerBudgetAreLoggedAtMostOnceASecond() throws Exception {
        Logger logger = Logger.getLogger(Http2FrameCodec.class.getName());
        List<String> lines = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel() == Level.WARNING) {
                    lines.add(record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(capture);
        try {
            Http2ServerBudget budget = new Http2ServerBudget(150_000);
            List<Connection> greedy = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Connection c = new Connection(1 << 20, budget);
                c.zeroWindowRequest();
                c.answer(100_000); // from the second on, each one takes the sum over and one is chosen to close
                greedy.add(c);
            }
            for (Connection c : greedy) {
                c.channel.runPendingTasks(); // the chosen ones close, all within the same second of their clocks
            }
            assertEquals(3, greedy.stream().filter(c -> !c.channel.isOpen()).count());
            assertEquals(1, lines.size(), "one line for a burst of closes: " + lines);
            assertTrue(lines.get(0).contains("Http2ServerBudget"), lines.get(0));

            Connection later = new Connection(1 << 20, budget);
            later.channel.advanceTimeBy(1, TimeUnit.SECONDS);
            later.zeroWindowRequest();
            later.answer(100_000);
            Connection open = greedy.stream().filter(c -> c.channel.isOpen()).findFirst().orElseThrow();
            open.channel.advanceTimeBy(1, TimeUnit.SECONDS);
            open.channel.runPendingTasks();
            later.channel.runPendingTasks();
            assertEquals(2, lines.size(), "a second later the next close is logged: " + lines);
            assertTrue(lines.get(1).contains("and 2 more connection(s) closed for it since the last such line"), lines.get(1));
            for (Connection c : List.of(open, later)) {
                if (c.channel.isOpen()) { // its queued answer goes with its stream (a graceful close would wait for it)
                    c.peer.inbound(out -> c.peer.writer.writeRstStream(out, 1, Http2Error.CANCEL));
                    c.peer.releaseInbound();
                }
            }
        } finally {
            logger.removeHandler(capture);
        }
    }

    @Test
    void h2_25_contentTheApplicationHoldsDoesNotPinTheBufferItArrivedIn() throws Exception {
        Connection c = new Connection(1 << 20, null);
        ByteBuf in = Unpooled.directBuffer();
        c.peer.writer.writeHeaders(in, 1, PeerDriver.request("POST", "/echo"), false);
        c.peer.writer.writeDataHeader(in, 1, 100, false);
        in.writeZero(100);
        in.retain();
        c.channel.writeInbound(in);
        Http2HeadersFrame head = c.channel.readInbound();
        Http2DataFrame data = c.channel.readInbound();
        assertEquals(1, head.streamId());
        assertEquals(1, in.refCnt(), "the 100 bytes the application holds must not pin the read buffer they came in");
        in.release();
        assertEquals(100, data.content().readableBytes());
        data.release();
    }
}
