package io.rill.handler.codec.http2;

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

/** The server side of {@link Http2FrameCodec}, driven frame by frame as a client would. */
class Http2FrameCodecTest {

    private static final Http2Config CONFIG = new Http2Config(true, 100, 65_535, 65_535, 8192, 4096, 10_000);

    private final TextFieldCodec fields = new TextFieldCodec();
    private final Http2FrameWriter client = new Http2FrameWriter(fields);
    private final FrameRecorder sent = new FrameRecorder(false);
    private final EmbeddedChannel channel = new EmbeddedChannel(new Http2FrameCodec(CONFIG, fields, fields));

    @AfterEach
    void release() {
        channel.finishAndReleaseAll();
        sent.release();
    }

    @Test
    void theServerSendsItsSettingsAndAcknowledgesTheClients() throws Exception {
        List<String> frames = handshake();
        assertEquals("SETTINGS Http2Settings[SETTINGS_MAX_CONCURRENT_STREAMS=100, SETTINGS_INITIAL_WINDOW_SIZE=65535,"
                + " SETTINGS_MAX_HEADER_LIST_SIZE=8192]", frames.get(0));
        assertEquals("SETTINGS ACK", frames.get(1));
    }

    @Test
    void aRequestIsPassedUpAndItsResponseGoesOutAsFrames() throws Exception {
        handshake();
        inbound(out -> client.writeHeaders(out, 1, request("GET", "/"), true));
        Http2HeadersFrame request = channel.readInbound();
        assertEquals(1, request.streamId());
        assertEquals("/", request.headers().path().toString());
        assertTrue(request.endStream());

        channel.write(new Http2HeadersFrame(1, new Http2Headers().status("200"), false));
        channel.writeAndFlush(new Http2DataFrame(1, Unpooled.copiedBuffer("Hello, World!", StandardCharsets.US_ASCII), true));
        assertEquals(List.of("HEADERS 1 Http2Headers[:status: 200]", "DATA 1 13 END_STREAM"), outbound());
    }

    @Test
    void contentWaitsForThePeersWindow() throws Exception {
        handshake();
        inbound(out -> client.writeHeaders(out, 1, request("GET", "/big"), true));
        channel.<Http2HeadersFrame>readInbound();
        channel.write(new Http2HeadersFrame(1, new Http2Headers().status("200"), false));
        channel.writeAndFlush(new Http2DataFrame(1, Unpooled.wrappedBuffer(new byte[100_000]), true));
        List<String> first = outbound();
        assertEquals(sizes(65_535), dataSizes(first), first.toString());
        inbound(out -> {
            client.writeWindowUpdate(out, 0, 50_000);
            client.writeWindowUpdate(out, 1, 50_000);
        });
        assertEquals(sizes(34_465), dataSizes(outbound()));
    }

    @Test
    void smallContentQueuesBehindWaitingContentAndWaitsForTheConnectionWindow() throws Exception {
        handshake();
        inbound(out -> {
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
        List<String> first = outbound();
        assertEquals(sizes(65_535), dataSizes(first), first.toString());
        assertFalse(first.stream().anyMatch(f -> f.startsWith("DATA 3")), first.toString());

        inbound(out -> {
            client.writeWindowUpdate(out, 0, 100_000);
            client.writeWindowUpdate(out, 1, 100_000);
        });
        List<String> rest = outbound();
        assertEquals(List.of("DATA 1 4465", "DATA 1 10 END_STREAM"),
                rest.stream().filter(f -> f.startsWith("DATA 1")).toList(), rest.toString());
        assertEquals(List.of("DATA 3 13 END_STREAM"), rest.stream().filter(f -> f.startsWith("DATA 3")).toList());
    }

    @Test
    void receivedContentHoldsTheWindowUntilTheApplicationConsumesIt() throws Exception {
        handshake();
        inbound(out -> {
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
        assertEquals(List.of(), outbound(), "no credit before the application consumed anything");
        channel.writeAndFlush(new Http2WindowUpdateFrame(1, 40_000));
        assertEquals(List.of("WINDOW_UPDATE 0 40000", "WINDOW_UPDATE 1 40000"), outbound());
    }

    @Test
    void dataBeyondTheWindowIsAFlowControlError() throws Exception {
        handshake();
        inbound(out -> {
            client.writeHeaders(out, 1, request("POST", "/echo"), false);
            for (int i = 0; i < 5; i++) {
                client.writeDataHeader(out, 1, 16_000, false);
                out.writeZero(16_000);
            }
        });
        releaseInbound();
        assertEquals(List.of("GOAWAY 1 FLOW_CONTROL_ERROR"), outbound());
        assertFalse(channel.isOpen());
    }

    @Test
    void aBadPrefaceEndsTheConnection() throws Exception {
        channel.writeInbound(Unpooled.copiedBuffer("GET / HTTP/1.1\r\n\r\n", StandardCharsets.US_ASCII));
        List<String> frames = outbound();
        assertEquals("GOAWAY 0 PROTOCOL_ERROR", frames.get(frames.size() - 1));
        assertFalse(channel.isOpen());
    }

    @Test
    void aPingIsAnswered() throws Exception {
        handshake();
        inbound(out -> client.writePing(out, 42, false));
        assertEquals(List.of("PING 42 ACK"), outbound());
    }

    @Test
    void frameErrorsOfOneStreamResetOnlyThatStream() throws Exception {
        handshake();
        inbound(out -> {
            client.writeHeaders(out, 1, request("GET", "/"), false);
            client.writeWindowUpdate(out, 1, 0);
            client.writeHeaders(out, 3, request("GET", "/"), true);
        });
        assertInstanceOf(Http2HeadersFrame.class, channel.readInbound());
        assertEquals(new Http2ResetFrame(1, Http2Error.PROTOCOL_ERROR), channel.readInbound());
        assertEquals(3, channel.<Http2HeadersFrame>readInbound().streamId());
        assertEquals(List.of("RST_STREAM 1 PROTOCOL_ERROR"), outbound());
        assertTrue(channel.isOpen());
    }

    @Test
    void closingSendsGoAwayAndWaitsForOpenStreams() throws Exception {
        handshake();
        inbound(out -> client.writeHeaders(out, 1, request("GET", "/"), true));
        channel.<Http2HeadersFrame>readInbound();
        channel.close();
        assertEquals(List.of("GOAWAY 1 NO_ERROR"), outbound());
        assertTrue(channel.isOpen(), "stream 1 is still being answered");
        channel.writeAndFlush(new Http2HeadersFrame(1, new Http2Headers().status("204"), true));
        assertEquals(List.of("HEADERS 1 Http2Headers[:status: 204] END_STREAM"), outbound());
        assertFalse(channel.isOpen());
    }

    // ---------------------------------------------------------------- helpers

    private interface Frames {
        void write(ByteBuf out) throws Exception;
    }

    private List<String> handshake() throws Exception {
        ByteBuf out = Unpooled.buffer();
        Http2Frames.writePreface(out);
        client.writeSettings(out, new Http2Settings());
        channel.writeInbound(out);
        assertNull(channel.readInbound());
        List<String> frames = outbound();
        inbound(o -> client.writeSettingsAck(o));
        return frames;
    }

    private void inbound(Frames frames) throws Exception {
        ByteBuf out = Unpooled.buffer();
        frames.write(out);
        channel.writeInbound(out);
    }

    private void releaseInbound() {
        for (Object o; (o = channel.readInbound()) != null; ) {
            io.rill.buffer.ReferenceCountUtil.release(o);
        }
    }

    private List<String> outbound() throws Exception {
        List<String> frames = new ArrayList<>();
        for (ByteBuf b; (b = channel.readOutbound()) != null; ) {
            frames.addAll(sent.feed(b));
        }
        return frames;
    }

    private static Http2Headers request(String method, String path) {
        return new Http2Headers().method(method).scheme("http").authority("localhost").path(path);
    }

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
