package io.rill.handler.codec.http2;

import static io.rill.handler.codec.http2.PeerDriver.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.embedded.EmbeddedChannel;

/** The server side of {@link Http2MultiplexHandler}: streams as child channels, driven frame by frame. */
class Http2MultiplexHandlerTest {

    private static final Http2Config CONFIG = new Http2Config(true, 100, 65_535, 65_535, 8192, 4096, 10_000);

    private final List<StreamRecorder> streams = new ArrayList<>();
    private boolean autoRead = true;
    private final EmbeddedChannel channel = new EmbeddedChannel(
            new Http2FrameCodec(CONFIG, new TextFieldCodec(), new TextFieldCodec()),
            new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
                @Override
                protected void initChannel(Http2StreamChannel ch) {
                    ch.config().setAutoRead(autoRead);
                    StreamRecorder recorder = new Responder();
                    streams.add(recorder);
                    ch.pipeline().addLast(recorder);
                }
            }));
    private final PeerDriver peer = new PeerDriver(channel, true);

    /** Answers "GET /hello" with a 200 and "Hello, World!" once the request ended. */
    private static final class Responder extends StreamRecorder {
        @Override
        void onRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame h && h.endStream() && "/hello".contentEquals(h.headers().path())) {
                ctx.write(new Http2HeadersFrame(0, new Http2Headers().status("200"), false));
                ctx.writeAndFlush(new Http2DataFrame(0, Unpooled.copiedBuffer("Hello, World!", StandardCharsets.US_ASCII), true));
            }
        }
    }

    @AfterEach
    void release() {
        // The connection's close waits for open streams (a timer the embedded loop never runs): close them first.
        streams.forEach(s -> s.channel.close());
        channel.finishAndReleaseAll();
        peer.release();
    }

    @Test
    void aRequestIsAnsweredOnItsStreamChannelWhichThenCloses() throws Exception {
        peer.handshake();
        peer.inbound(out -> peer.writer.writeHeaders(out, 1, request("GET", "/hello"), true));
        assertEquals(List.of("HEADERS 1 Http2Headers[:status: 200]", "DATA 1 13 END_STREAM"), peer.outbound(),
                "stream ids filled in by the stream channel; no reset after both ends ended");
        StreamRecorder stream = streams.get(0);
        assertEquals(1, stream.channel.streamId());
        assertSame(channel, stream.channel.parent());
        assertSame(channel.eventLoop(), stream.channel.eventLoop());
        assertEquals(channel.remoteAddress(), stream.channel.remoteAddress());
        assertTrue(stream.channel.closeFuture().isDone());
        assertEquals(List.of("ACTIVE", "HEADERS /hello END", "COMPLETE", "INACTIVE"), stream.take());
    }

    @Test
    void eachStreamHasItsOwnChannelAndPipeline() throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            for (int id = 1; id <= 9; id += 2) {
                peer.writer.writeHeaders(out, id, request("POST", "/upload" + id), false);
            }
            for (int id = 1; id <= 9; id += 2) {
                peer.writer.writeDataHeader(out, id, id * 10, true);
                out.writeZero(id * 10);
            }
        });
        assertEquals(5, streams.size());
        for (int i = 0; i < 5; i++) {
            int id = 2 * i + 1;
            StreamRecorder stream = streams.get(i);
            assertEquals(id, stream.channel.streamId());
            assertEquals(List.of("ACTIVE", "HEADERS /upload" + id, "DATA " + id * 10 + " END", "COMPLETE"), stream.take());
            assertTrue(stream.channel.isOpen(), "the response is still to come");
        }
        assertNotSame(streams.get(0).channel.pipeline(), streams.get(1).channel.pipeline());
        for (StreamRecorder stream : streams) {
            stream.channel.writeAndFlush(new Http2HeadersFrame(0, new Http2Headers().status("204"), true));
        }
        assertEquals(List.of("HEADERS 1 Http2Headers[:status: 204] END_STREAM", "HEADERS 3 Http2Headers[:status: 204] END_STREAM",
                "HEADERS 5 Http2Headers[:status: 204] END_STREAM", "HEADERS 7 Http2Headers[:status: 204] END_STREAM",
                "HEADERS 9 Http2Headers[:status: 204] END_STREAM"), peer.outbound());
        for (StreamRecorder stream : streams) {
            assertFalse(stream.channel.isOpen());
        }
    }

    @Test
    void contentReadByTheStreamGivesCreditBack() throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            peer.writer.writeHeaders(out, 1, request("POST", "/upload"), false);
            for (int i = 0; i < 4; i++) {
                peer.writer.writeDataHeader(out, 1, 10_000, false);
                out.writeZero(10_000);
            }
        });
        assertEquals(List.of("WINDOW_UPDATE 0 40000", "WINDOW_UPDATE 1 40000"), peer.outbound());
    }

    @Test
    void withAutoReadOffContentHoldsTheWindowUntilRead() throws Exception {
        autoRead = false;
        peer.handshake();
        peer.inbound(out -> {
            peer.writer.writeHeaders(out, 1, request("POST", "/upload"), false);
            for (int i = 0; i < 4; i++) {
                peer.writer.writeDataHeader(out, 1, 16_000, false);
                out.writeZero(16_000);
            }
        });
        StreamRecorder stream = streams.get(0);
        assertEquals(List.of("ACTIVE"), stream.take(), "nothing is read before read()");
        assertEquals(List.of(), peer.outbound(), "no credit for content not read");

        readOnce(stream);
        assertEquals(List.of("HEADERS /upload", "COMPLETE"), stream.take());
        readOnce(stream);
        readOnce(stream);
        assertEquals(List.of("DATA 16000", "COMPLETE", "DATA 16000", "COMPLETE"), stream.take());
        assertEquals(List.of(), peer.outbound(), "32,000 consumed: below half the window, not worth an update yet");
        readOnce(stream);
        assertEquals(List.of("WINDOW_UPDATE 0 48000", "WINDOW_UPDATE 1 48000"), peer.outbound());
    }

    @Test
    void aPeerThatSendsBeyondTheHeldWindowFailsWithFlowControlError() throws Exception {
        autoRead = false;
        peer.handshake();
        peer.inbound(out -> {
            peer.writer.writeHeaders(out, 1, request("POST", "/upload"), false);
            for (int i = 0; i < 5; i++) {
                peer.writer.writeDataHeader(out, 1, 16_000, false);
                out.writeZero(16_000);
            }
        });
        assertEquals(List.of("GOAWAY 1 FLOW_CONTROL_ERROR"), peer.outbound());
        assertFalse(channel.isOpen());
        StreamRecorder stream = streams.get(0);
        assertFalse(stream.channel.isOpen(), "the connection's close closes its streams, dropping what they queued");
        assertEquals(List.of("ACTIVE", "INACTIVE"), stream.take());
    }

    @Test
    void aPeerThatSendsBeyondAHeldStreamWindowLosesOnlyThatStream() throws Exception {
        StreamRecorder stream = new StreamRecorder();
        Http2Config bigConnectionWindow = new Http2Config(true, 100, 65_535, 1 << 20, 8192, 4096, 10_000);
        EmbeddedChannel connection = new EmbeddedChannel(
                new Http2FrameCodec(bigConnectionWindow, new TextFieldCodec(), new TextFieldCodec()),
                new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
                    @Override
                    protected void initChannel(Http2StreamChannel ch) {
                        ch.config().setAutoRead(false);
                        ch.pipeline().addLast(stream);
                    }
                }));
        PeerDriver client = new PeerDriver(connection, true);
        try {
            client.handshake();
            client.inbound(out -> {
                client.writer.writeHeaders(out, 1, request("POST", "/upload"), false);
                for (int i = 0; i < 5; i++) {
                    client.writer.writeDataHeader(out, 1, 16_000, false);
                    out.writeZero(16_000);
                }
            });
            assertEquals(List.of("RST_STREAM 1 FLOW_CONTROL_ERROR"), client.outbound());
            assertTrue(connection.isOpen());
            assertFalse(stream.channel.isOpen());
            assertEquals(List.of("ACTIVE", "RESET FLOW_CONTROL_ERROR", "INACTIVE"), stream.take());
        } finally {
            connection.finishAndReleaseAll();
            client.release();
        }
    }

    @Test
    void writabilityFollowsAPeerThatDoesNotRead() throws Exception {
        peer.handshake();
        peer.inbound(out -> peer.writer.writeHeaders(out, 1, request("GET", "/big"), true));
        StreamRecorder stream = streams.get(0);
        Http2StreamChannel child = stream.channel;
        child.write(new Http2HeadersFrame(0, new Http2Headers().status("200"), false));
        int chunks = 0;
        while (child.isWritable()) {
            child.writeAndFlush(new Http2DataFrame(0, Unpooled.wrappedBuffer(new byte[16_384]), false));
            chunks++;
        }
        assertEquals(8, chunks, "65,535 bytes go out, then 64 KiB may wait in the codec");
        assertEquals(List.of("ACTIVE", "HEADERS /big END", "COMPLETE", "WRITABLE false"), stream.take());
        child.writeAndFlush(new Http2DataFrame(0, Unpooled.wrappedBuffer(new byte[16_384]), true));
        peer.outbound();

        peer.inbound(out -> {
            peer.writer.writeWindowUpdate(out, 0, 1 << 20);
            peer.writer.writeWindowUpdate(out, 1, 1 << 20);
        });
        assertEquals(List.of("WRITABLE true", "INACTIVE"), stream.take(), "writable again, and both ends ended");
        List<String> rest = peer.outbound();
        assertEquals("DATA 1 16384 END_STREAM", rest.get(rest.size() - 1), rest.toString());
    }

    @Test
    void streamsHoldTheirWritesWhileTheConnectionIsNotWritable() throws Exception {
        peer.handshake();
        peer.inbound(out -> peer.writer.writeHeaders(out, 1, request("GET", "/a"), true));
        StreamRecorder stream = streams.get(0);
        stream.take();
        channel.incrementPendingOutboundBytes(100_000); // as if the socket had stopped taking bytes
        assertEquals(List.of("WRITABLE false"), stream.take());
        stream.channel.writeAndFlush(new Http2HeadersFrame(0, new Http2Headers().status("204"), true));
        assertEquals(List.of(), peer.outbound(), "held in the stream channel, not piled up in the connection");

        channel.decrementPendingOutboundBytes(100_000);
        assertEquals(List.of("HEADERS 1 Http2Headers[:status: 204] END_STREAM"), peer.outbound());
        channel.runPendingTasks();
        assertEquals(List.of("WRITABLE true", "INACTIVE"), stream.take());
    }

    @Test
    void aResetByThePeerClosesTheStreamChannel() throws Exception {
        peer.handshake();
        peer.inbound(out -> peer.writer.writeHeaders(out, 1, request("POST", "/upload"), false));
        peer.inbound(out -> peer.writer.writeRstStream(out, 1, Http2Error.CANCEL));
        StreamRecorder stream = streams.get(0);
        assertFalse(stream.channel.isOpen());
        assertEquals(List.of("ACTIVE", "HEADERS /upload", "COMPLETE", "RESET CANCEL", "INACTIVE"), stream.take());
        assertEquals(List.of(), peer.outbound(), "no reset goes back for a reset stream");
    }

    @Test
    void closingAStreamChannelEarlyResetsItsStreamWithCancel() throws Exception {
        peer.handshake();
        peer.inbound(out -> peer.writer.writeHeaders(out, 1, request("POST", "/upload"), false));
        streams.get(0).channel.close();
        assertEquals(List.of("RST_STREAM 1 CANCEL"), peer.outbound());
        peer.inbound(out -> {
            peer.writer.writeDataHeader(out, 1, 100, true);
            out.writeZero(100);
        });
        assertEquals(List.of(), peer.outbound(), "DATA in flight on a stream we reset is ignored (RFC 9113 §5.4.2)");
        assertTrue(channel.isOpen());
    }

    @Test
    void contentQueuedInAClosedStreamChannelGivesTheConnectionItsCreditBack() throws Exception {
        autoRead = false;
        peer.handshake();
        peer.inbound(out -> {
            peer.writer.writeHeaders(out, 1, request("POST", "/upload"), false);
            for (int i = 0; i < 3; i++) {
                peer.writer.writeDataHeader(out, 1, 16_000, false);
                out.writeZero(16_000);
            }
        });
        streams.get(0).channel.close();
        assertEquals(List.of("RST_STREAM 1 CANCEL", "WINDOW_UPDATE 0 48000"), peer.outbound());
    }

    @Test
    void aGracefulCloseLetsOpenStreamsFinish() throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            peer.writer.writeHeaders(out, 1, request("GET", "/a"), true);
            peer.writer.writeHeaders(out, 3, request("GET", "/b"), true);
        });
        channel.close();
        List<String> first = peer.outbound();
        assertEquals("GOAWAY 2147483647 NO_ERROR", first.get(0));
        long ping = Long.parseLong(first.get(1).substring("PING ".length()));
        peer.inbound(out -> peer.writer.writePing(out, ping, true));
        assertEquals(List.of("GOAWAY 3 NO_ERROR"), peer.outbound());
        for (StreamRecorder stream : streams) {
            assertTrue(stream.channel.isActive(), "in-flight streams are still served");
            stream.channel.writeAndFlush(new Http2HeadersFrame(0, new Http2Headers().status("204"), true));
        }
        assertEquals(2, peer.outbound().size());
        assertFalse(channel.isOpen());
    }

    @Test
    void aConnectionErrorClosesEveryStreamChannel() throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            peer.writer.writeHeaders(out, 1, request("GET", "/a"), true);
            peer.writer.writeHeaders(out, 3, request("POST", "/b"), false);
            peer.writer.writeDataHeader(out, 3, 1000, false);
            out.writeZero(1000);
        });
        peer.inbound(out -> peer.writer.writeWindowUpdate(out, 0, 0));
        assertEquals(List.of("GOAWAY 3 PROTOCOL_ERROR"), peer.outbound());
        for (StreamRecorder stream : streams) {
            assertFalse(stream.channel.isOpen());
            List<String> events = stream.take();
            assertEquals("INACTIVE", events.get(events.size() - 1));
        }
    }

    @Test
    void aStreamChannelRefusesFramesOfOtherStreams() throws Exception {
        peer.handshake();
        peer.inbound(out -> peer.writer.writeHeaders(out, 1, request("GET", "/a"), true));
        Channel child = streams.get(0).channel;
        io.rill.util.concurrent.Future<Void> f = child.writeAndFlush(new Http2HeadersFrame(3, new Http2Headers().status("200"), true));
        assertFalse(f.isSuccess());
        assertTrue(f.cause().getMessage().contains("cannot write a frame of stream 3"), f.cause().getMessage());
    }

    @Test
    void aStreamThatReadsFromChannelReadCompleteGetsEveryFrameWithoutRecursion() throws Exception {
        autoRead = false;
        peer.handshake();
        peer.inbound(out -> {
            peer.writer.writeHeaders(out, 1, request("POST", "/upload"), false);
            for (int i = 0; i < 2000; i++) {
                peer.writer.writeDataHeader(out, 1, 1, i == 1999);
                out.writeZero(1);
            }
        });
        StreamRecorder stream = streams.get(0);
        stream.channel.pipeline().addFirst(new ChannelHandler() {
            @Override
            public void channelReadComplete(ChannelHandlerContext ctx) {
                ctx.fireChannelReadComplete();
                ctx.read(); // the pull loop of a handler with AUTO_READ off
            }
        });
        readOnce(stream);
        List<String> events = stream.take();
        assertEquals(3 + 2 * 2000, events.size(), "ACTIVE, the HEADERS and each DATA with its COMPLETE");
        assertEquals(List.of("DATA 1 END", "COMPLETE"), events.subList(events.size() - 2, events.size()),
                "one frame per read(), each read its own task: 2,000 reads deep would be 2,000 frames of stack");
    }

    @Test
    void aHandlerThatCannotBeSharedServesOneStreamAndTheOthersAreCancelled() throws Exception {
        StreamRecorder notSharable = new StreamRecorder();
        EmbeddedChannel connection = new EmbeddedChannel(new Http2FrameCodec(CONFIG, new TextFieldCodec(), new TextFieldCodec()),
                new Http2MultiplexHandler(notSharable));
        PeerDriver client = new PeerDriver(connection, true);
        try {
            client.handshake();
            client.inbound(out -> client.writer.writeHeaders(out, 1, request("GET", "/a"), true));
            assertEquals(List.of("ACTIVE", "HEADERS /a END", "COMPLETE"), notSharable.take());
            Exception e = assertThrows(Exception.class,
                    () -> client.inbound(out -> client.writer.writeHeaders(out, 3, request("GET", "/b"), true)));
            assertTrue(e.getMessage().contains("Sharable"), e.getMessage());
            assertEquals(List.of("RST_STREAM 3 CANCEL"), client.outbound());
            assertTrue(connection.isOpen(), "the connection and its first stream go on");
            assertTrue(notSharable.channel.isActive());
        } finally {
            notSharable.channel.close();
            connection.finishAndReleaseAll();
            client.release();
        }
    }

    @Test
    void aFrameTheCodecRefusesFailsItsWrite() throws Exception {
        peer.handshake();
        peer.inbound(out -> peer.writer.writeHeaders(out, 1, request("POST", "/upload"), false));
        StreamRecorder stream = streams.get(0);
        stream.take();
        stream.channel.writeAndFlush(new Http2HeadersFrame(0, new Http2Headers().status("204"), true));
        io.rill.util.concurrent.Future<Void> late =
                stream.channel.writeAndFlush(new Http2DataFrame(0, Unpooled.wrappedBuffer(new byte[10]), true));
        assertEquals("stream 1 is closed for writing", late.cause().getMessage());
        assertEquals(List.of(), stream.take(), "the write's failure says it; exceptionCaught is for later refusals");
        assertTrue(stream.channel.isOpen(), "the peer may still send");
    }

    private void readOnce(StreamRecorder stream) {
        stream.channel.read();
        channel.runPendingTasks();
    }
}
