package io.rill.handler.codec.http2;

import static io.rill.handler.codec.http2.PeerDriver.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.util.concurrent.Future;

/** The server side of {@link Http2FrameCodec}, driven frame by frame as a client would. */
class Http2FrameCodecTest {

    private static final Http2Config CONFIG = new Http2Config(true, 100, 65_535, 65_535, 8192, 4096, 10_000);

    private final TextFieldCodec fields = new TextFieldCodec();
    private final EmbeddedChannel channel = new EmbeddedChannel(new Http2FrameCodec(CONFIG, fields, fields));
    private final PeerDriver peer = new PeerDriver(channel, true);
    private final Http2FrameWriter client = peer.writer;

    @AfterEach
    void release() {
        channel.finishAndReleaseAll();
        peer.release();
    }

    @Test
    void theServerSendsItsSettingsAndAcknowledgesTheClients() throws Exception {
        List<String> frames = peer.handshake();
        assertEquals("SETTINGS Http2Settings[SETTINGS_MAX_CONCURRENT_STREAMS=100, SETTINGS_INITIAL_WINDOW_SIZE=65535,"
                + " SETTINGS_MAX_HEADER_LIST_SIZE=8192]", frames.get(0));
        assertEquals("SETTINGS ACK", frames.get(1));
    }

    @Test
    void aRequestIsPassedUpAndItsResponseGoesOutAsFrames() throws Exception {
        peer.handshake();
        peer.inbound(out -> client.writeHeaders(out, 1, request("GET", "/"), true));
        Http2HeadersFrame request = channel.readInbound();
        assertEquals(1, request.streamId());
        assertEquals("/", request.headers().path().toString());
        assertTrue(request.endStream());

        channel.write(new Http2HeadersFrame(1, new Http2Headers().status("200"), false));
        channel.writeAndFlush(new Http2DataFrame(1, Unpooled.copiedBuffer("Hello, World!", StandardCharsets.US_ASCII), true));
        assertEquals(List.of("HEADERS 1 Http2Headers[:status: 200]", "DATA 1 13 END_STREAM"), peer.outbound());
    }

    @Test
    void contentWaitsForThePeersWindow() throws Exception {
        peer.handshake();
        peer.inbound(out -> client.writeHeaders(out, 1, request("GET", "/big"), true));
        channel.<Http2HeadersFrame>readInbound();
        channel.write(new Http2HeadersFrame(1, new Http2Headers().status("200"), false));
        channel.writeAndFlush(new Http2DataFrame(1, Unpooled.wrappedBuffer(new byte[100_000]), true));
        List<String> first = peer.outbound();
        assertEquals(sizes(65_535), dataSizes(first), first.toString());
        peer.inbound(out -> {
            client.writeWindowUpdate(out, 0, 50_000);
            client.writeWindowUpdate(out, 1, 50_000);
        });
        assertEquals(sizes(34_465), dataSizes(peer.outbound()));
    }

    @Test
    void smallContentQueuesBehindWaitingContentAndWaitsForTheConnectionWindow() throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            client.writeHeaders(out, 1, request("GET", "/big"), true);
            client.writeHeaders(out, 3, request("GET", "/"), true);
        });
        channel.<Http2HeadersFrame>readInbound();
        channel.<Http2HeadersFrame>readInbound();
        channel.write(new Http2HeadersFrame(1, new Http2Headers().status("200"), false));
        channel.write(new Http2DataFrame(1, Unpooled.wrappedBuffer(new byte[70_000]), false));
        channel.write(new Http2DataFrame(1, Unpooled.wrappedBuffer(new byte[10]), true)); // behind the 4,465 waiting
        channel.write(new Http2HeadersFrame(3, new Http2Headers().status("200"), false));
        channel.writeAndFlush(new Http2DataFrame(3, Unpooled.wrappedBuffer(new byte[13]), true)); // no window left
        List<String> first = peer.outbound();
        assertEquals(sizes(65_535), dataSizes(first), first.toString());
        assertFalse(first.stream().anyMatch(f -> f.startsWith("DATA 3")), first.toString());

        peer.inbound(out -> {
            client.writeWindowUpdate(out, 0, 100_000);
            client.writeWindowUpdate(out, 1, 100_000);
        });
        List<String> rest = peer.outbound();
        assertEquals(List.of("DATA 1 4465", "DATA 1 10 END_STREAM"),
                rest.stream().filter(f -> f.startsWith("DATA 1")).toList(), rest.toString());
        assertEquals(List.of("DATA 3 13 END_STREAM"), rest.stream().filter(f -> f.startsWith("DATA 3")).toList());
    }

    @Test
    void receivedContentHoldsTheWindowUntilTheApplicationConsumesIt() throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            client.writeHeaders(out, 1, request("POST", "/echo"), false);
            for (int i = 0; i < 4; i++) {
                client.writeDataHeader(out, 1, 10_000, false);
                out.writeZero(10_000);
            }
        });
        channel.<Http2HeadersFrame>readInbound();
        for (int i = 0; i < 4; i++) {
            Http2DataFrame data = channel.readInbound();
            assertEquals(10_000, data.flowControlled());
            data.release();
        }
        assertEquals(List.of(), peer.outbound(), "no credit before the application consumed anything");
        channel.writeAndFlush(new Http2WindowUpdateFrame(1, 40_000));
        assertEquals(List.of("WINDOW_UPDATE 0 40000", "WINDOW_UPDATE 1 40000"), peer.outbound());
    }

    @Test
    void dataBeyondTheWindowIsAFlowControlError() throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            client.writeHeaders(out, 1, request("POST", "/echo"), false);
            for (int i = 0; i < 5; i++) {
                client.writeDataHeader(out, 1, 16_000, false);
                out.writeZero(16_000);
            }
        });
        peer.releaseInbound();
        assertEquals(List.of("GOAWAY 1 FLOW_CONTROL_ERROR"), peer.outbound());
        assertFalse(channel.isOpen());
    }

    @Test
    void aBadPrefaceEndsTheConnection() throws Exception {
        channel.writeInbound(Unpooled.copiedBuffer("GET / HTTP/1.1\r\n\r\n", StandardCharsets.US_ASCII));
        List<String> frames = peer.outbound();
        assertEquals("GOAWAY 0 PROTOCOL_ERROR", frames.get(frames.size() - 1));
        assertFalse(channel.isOpen());
    }

    @Test
    void aPingIsAnswered() throws Exception {
        peer.handshake();
        peer.inbound(out -> client.writePing(out, 42, false));
        assertEquals(List.of("PING 42 ACK"), peer.outbound());
    }

    @Test
    void frameErrorsOfOneStreamResetOnlyThatStream() throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            client.writeHeaders(out, 1, request("GET", "/"), false);
            client.writeWindowUpdate(out, 1, 0);
            client.writeHeaders(out, 3, request("GET", "/"), true);
        });
        assertInstanceOf(Http2HeadersFrame.class, channel.readInbound());
        assertEquals(new Http2ResetFrame(1, Http2Error.PROTOCOL_ERROR), channel.readInbound());
        assertEquals(3, channel.<Http2HeadersFrame>readInbound().streamId());
        assertEquals(List.of("RST_STREAM 1 PROTOCOL_ERROR"), peer.outbound());
        assertTrue(channel.isOpen());
    }

    @Test
    void closingIsTheDoubleGoAwayThatServesWhatWasInFlight() throws Exception {
        peer.handshake();
        peer.inbound(out -> client.writeHeaders(out, 1, request("GET", "/"), true));
        channel.<Http2HeadersFrame>readInbound();
        channel.close();
        List<String> first = peer.outbound();
        assertEquals("GOAWAY 2147483647 NO_ERROR", first.get(0));
        assertTrue(first.get(1).startsWith("PING "), first.toString());
        long ping = Long.parseLong(first.get(1).substring(5));
        peer.inbound(out -> {
            client.writeHeaders(out, 3, request("GET", "/in-flight"), true); // sent before the client saw GOAWAY
            client.writePing(out, ping, true);
            client.writeHeaders(out, 5, request("GET", "/too-late"), true);
        });
        assertEquals(3, channel.<Http2HeadersFrame>readInbound().streamId());
        assertNull(channel.readInbound(), "stream 5 came after the final GOAWAY");
        assertEquals(List.of("GOAWAY 3 NO_ERROR"), peer.outbound());
        channel.writeAndFlush(new Http2HeadersFrame(1, new Http2Headers().status("204"), true));
        assertTrue(channel.isOpen(), "stream 3 is still being answered");
        channel.writeAndFlush(new Http2HeadersFrame(3, new Http2Headers().status("204"), true));
        assertEquals(List.of("HEADERS 1 Http2Headers[:status: 204] END_STREAM", "HEADERS 3 Http2Headers[:status: 204] END_STREAM"),
                peer.outbound());
        assertFalse(channel.isOpen());
    }

    @Test
    void aCloseAfterOneWithTheVoidPromiseCompletesWithTheShutdown() throws Exception {
        // The transport closes with the void promise at the peer's end of stream; the application may close too.
        peer.handshake();
        peer.inbound(out -> client.writeHeaders(out, 1, request("GET", "/"), true));
        channel.<Http2HeadersFrame>readInbound();
        channel.close(channel.voidPromise());
        Future<Void> second = channel.close();
        channel.checkException(); // nothing was thrown at the pipeline
        assertFalse(second.isDone(), "stream 1 is still being answered");
        long ping = Long.parseLong(peer.outbound().get(1).substring(5));
        peer.inbound(out -> client.writePing(out, ping, true));
        channel.writeAndFlush(new Http2HeadersFrame(1, new Http2Headers().status("204"), true));
        assertTrue(second.isSuccess());
        assertFalse(channel.isOpen());
    }

    @Test
    void oneConstantBufferCanBeTheContentOfEveryResponse() throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            for (int id = 1; id <= 7; id += 2) {
                client.writeHeaders(out, id, request("GET", "/"), true);
            }
        });
        peer.releaseInbound();
        ByteBuf small = Unpooled.constantBuffer("Hello, World!".getBytes(StandardCharsets.US_ASCII));
        ByteBuf large = Unpooled.constantBuffer(new byte[Http2Sender.COPY_THRESHOLD + 1]); // queued, sent in pieces
        for (int id = 1; id <= 7; id += 2) {
            channel.write(new Http2HeadersFrame(id, new Http2Headers().status("200"), false));
            channel.write(new Http2DataFrame(id, id <= 3 ? small : large, true));
        }
        channel.flush();
        List<String> data = peer.outbound().stream().filter(f -> f.startsWith("DATA")).toList();
        assertEquals(List.of("DATA 1 13 END_STREAM", "DATA 3 13 END_STREAM", "DATA 5 1025 END_STREAM",
                "DATA 7 1025 END_STREAM"), data);
        assertEquals(13, small.readableBytes());
        assertEquals(Http2Sender.COPY_THRESHOLD + 1, large.readableBytes());
    }

    @Test
    void connectOpensATunnelWhoseBytesFlowBothWays() throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            client.writeHeaders(out, 1, new Http2Headers().method("CONNECT").authority("example.com:443"), false);
            client.writeDataHeader(out, 1, 5, false);
            out.writeBytes("hello".getBytes(StandardCharsets.US_ASCII));
        });
        Http2HeadersFrame connect = channel.readInbound();
        assertEquals("example.com:443", connect.headers().authority().toString());
        Http2DataFrame up = channel.readInbound();
        assertEquals("hello", up.content().toString(StandardCharsets.US_ASCII));
        up.release();
        channel.write(new Http2HeadersFrame(1, new Http2Headers().status("200"), false));
        channel.writeAndFlush(new Http2DataFrame(1, Unpooled.copiedBuffer("world", StandardCharsets.US_ASCII), false));
        assertEquals(List.of("HEADERS 1 Http2Headers[:status: 200]", "DATA 1 5"), peer.outbound());
    }

    @Test
    void aConnectWithAPathIsMalformed() throws Exception {
        peer.handshake();
        peer.inbound(out -> client.writeHeaders(out, 1, new Http2Headers().method("CONNECT").authority("example.com:443")
                .path("/"), false));
        assertEquals(new Http2ResetFrame(1, Http2Error.PROTOCOL_ERROR), channel.readInbound());
    }

    @Test
    void informationalResponsesPrecedeTheFinalOne() throws Exception {
        peer.handshake();
        peer.inbound(out -> client.writeHeaders(out, 1, request("POST", "/").add("expect", "100-continue"), false));
        channel.<Http2HeadersFrame>readInbound();
        channel.write(new Http2HeadersFrame(1, new Http2Headers().status("100"), false));
        channel.write(new Http2HeadersFrame(1, new Http2Headers().status("103").add("link", "</s.css>"), false));
        channel.writeAndFlush(new Http2HeadersFrame(1, new Http2Headers().status("200"), true));
        assertEquals(List.of("HEADERS 1 Http2Headers[:status: 100]", "HEADERS 1 Http2Headers[:status: 103, link: </s.css>]",
                "HEADERS 1 Http2Headers[:status: 200] END_STREAM"), peer.outbound());
    }

    // ---------------------------------------------------------------- helpers

    private static List<Integer> sizes(int total) {
        List<Integer> sizes = new ArrayList<>();
        for (int left = total; left > 0; left -= 16_384) {
            sizes.add(Math.min(left, 16_384));
        }
        return sizes;
    }

    private static List<Integer> dataSizes(List<String> frames) {
        List<Integer> sizes = new ArrayList<>();
        for (String f : frames) {
            if (f.startsWith("DATA ")) {
                sizes.add(Integer.parseInt(f.split(" ")[2]));
            }
        }
        return sizes;
    }
}
