package io.rill.handler.codec.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.embedded.EmbeddedChannel;

/** How {@link CleartextHttpProtocolDetector} tells HTTP/2, HTTP/1.1 and neither apart, and how long it waits. */
class Http2CleartextDetectorTest {

    /** Marks the HTTP/1.1 side: it just passes the bytes on. */
    static final class Http1Marker implements ChannelHandler {
    }

    private final EmbeddedChannel channel = new EmbeddedChannel(new CleartextHttpProtocolDetector(
            () -> new Http2FrameCodec(new Http2Config(true, 100, 65_535, 65_535, 8192, 4096, 10_000),
                    new TextFieldCodec(), new TextFieldCodec()),
            () -> new ChannelHandler() { }, Http1Marker::new));

    @Test
    void anHttp11RequestLineGoesToHttp11WithItsBytes() {
        channel.writeInbound(bytes("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
        assertTrue(channel.pipeline().get(Http1Marker.class) != null);
        ByteBuf passed = channel.readInbound();
        assertEquals("GET / HTTP/1.1\r\nHost: x\r\n\r\n", passed.toString(StandardCharsets.US_ASCII));
        passed.release();
        channel.finishAndReleaseAll();
    }

    @Test
    void aFirstLineSplitAnywhereIsWaitedFor() {
        channel.writeInbound(bytes("GET / HT"));
        assertTrue(channel.pipeline().get(Http1Marker.class) == null);
        channel.writeInbound(bytes("TP/1.0\r\n"));
        assertTrue(channel.pipeline().get(Http1Marker.class) != null);
        channel.finishAndReleaseAll();
    }

    @Test
    void thePrefaceGoesToHttp2() {
        channel.writeInbound(bytes("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"));
        assertTrue(channel.pipeline().get(Http2FrameCodec.class) != null);
        channel.finishAndReleaseAll();
    }

    @Test
    void neitherProtocolIsAnInvalidPrefaceAnsweredWithGoAway() throws Exception {
        channel.writeInbound(bytes("INVALID CONNECTION PREFACE\r\n\r\n"));
        FrameRecorder sent = new FrameRecorder(false);
        List<String> frames = sent.feed(channel.readOutbound());
        sent.release();
        assertEquals(List.of("GOAWAY 0 PROTOCOL_ERROR"), frames);
        assertFalse(channel.isOpen());
        channel.finishAndReleaseAll();
    }

    @Test
    void aTooLongFirstLineIsLeftToTheHttp11Codec() {
        channel.writeInbound(bytes("GET /" + "a".repeat(CleartextHttpProtocolDetector.MAX_FIRST_LINE)));
        assertTrue(channel.pipeline().get(Http1Marker.class) != null);
        channel.finishAndReleaseAll();
    }

    @Test
    void aPeerThatTakesTooLongToShowItsProtocolIsClosed() {
        channel.writeInbound(bytes("GET / "));
        channel.advanceTimeBy(19, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertTrue(channel.isOpen());
        channel.advanceTimeBy(2, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertFalse(channel.isOpen());
        channel.finishAndReleaseAll();
    }

    private static ByteBuf bytes(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.US_ASCII);
    }
}
