package io.rill.handler.codec.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.channel.embedded.EmbeddedChannel;

/** The client side of {@link Http2FrameCodec}, answered frame by frame as a server would. */
class Http2ClientCodecTest {

    private static final Http2Config CONFIG = new Http2Config(false, 100, 65_535, 65_535, 8192, 4096, 10_000);

    private final TextFieldCodec fields = new TextFieldCodec();
    private final EmbeddedChannel channel = new EmbeddedChannel(new Http2FrameCodec(CONFIG, fields, fields));
    private final PeerDriver peer = new PeerDriver(channel, false);
    private final Http2FrameWriter server = peer.writer;

    @AfterEach
    void release() {
        channel.finishAndReleaseAll();
        peer.release();
    }

    @Test
    void theClientSendsThePrefaceAndNumbersItsStreams() throws Exception {
        List<String> preface = peer.outbound();
        assertTrue(preface.get(0).startsWith("SETTINGS "), preface.toString());
        assertTrue(preface.get(0).contains("SETTINGS_ENABLE_PUSH=0"), preface.toString());
        channel.writeAndFlush(new Http2HeadersFrame(0, request("GET"), true));
        channel.writeAndFlush(new Http2HeadersFrame(0, request("GET"), true));
        List<String> frames = peer.outbound();
        assertTrue(frames.get(0).startsWith("HEADERS 1 "), frames.toString());
        assertTrue(frames.get(1).startsWith("HEADERS 3 "), frames.toString());
    }

    @Test
    void aHeadResponseAnnouncesALengthItDoesNotCarry() throws Exception {
        peer.outbound();
        channel.writeAndFlush(new Http2HeadersFrame(0, request("HEAD"), true));
        peer.inbound(out -> {
            server.writeSettings(out, new Http2Settings());
            server.writeHeaders(out, 1, new Http2Headers().status("200").add("content-length", "13"), true);
        });
        Http2HeadersFrame response = channel.readInbound();
        assertEquals("13", response.headers().get("content-length").toString());
        assertTrue(response.endStream());
        assertEquals(List.of("HEADERS 1 Http2Headers[:method: HEAD, :scheme: http, :authority: localhost, :path: /] END_STREAM",
                "SETTINGS ACK"), peer.outbound().subList(0, 2));
    }

    @Test
    void aGetResponseEndingShortOfItsLengthIsReset() throws Exception {
        peer.outbound();
        channel.writeAndFlush(new Http2HeadersFrame(0, request("GET"), true));
        peer.inbound(out -> {
            server.writeSettings(out, new Http2Settings());
            server.writeHeaders(out, 1, new Http2Headers().status("200").add("content-length", "13"), true);
        });
        assertEquals(new Http2ResetFrame(1, Http2Error.PROTOCOL_ERROR), channel.readInbound());
    }

    private static Http2Headers request(String method) {
        return new Http2Headers().method(method).scheme("http").authority("localhost").path("/");
    }
}
