package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.compression.ZlibDecoder;

/** The port-unification detector sends each protocol to its pipeline, the bytes it looked at included. */
class PortUnificationServerTest {

    private static final PortUnificationServer.InflateLimits DEFAULT_LIMITS = new PortUnificationServer.InflateLimits(
            ZlibDecoder.DEFAULT_MAX_DECOMPRESSED_BYTES, ZlibDecoder.DEFAULT_MAX_RATIO);

    private static String written(EmbeddedChannel ch) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            ByteBuf b = (ByteBuf) o;
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            out.writeBytes(bytes);
            b.release();
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void anHttpRequestGetsHello() {
        EmbeddedChannel ch = new EmbeddedChannel(new PortUnificationServer.ProtocolDetector(null, DEFAULT_LIMITS));
        ch.writeInbound(Unpooled.copiedBuffer("GE", StandardCharsets.US_ASCII));
        ch.writeInbound(Unpooled.copiedBuffer("T /plaintext HTTP/1.1\r\nHost: a\r\n\r\n", StandardCharsets.US_ASCII));
        String response = written(ch);
        assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), response);
        assertTrue(response.endsWith("Hello, World!"), response);
        ch.finishAndReleaseAll();
    }

    @Test
    void plainLinesAreEchoed() {
        EmbeddedChannel ch = new EmbeddedChannel(new PortUnificationServer.ProtocolDetector(null, DEFAULT_LIMITS));
        ch.writeInbound(Unpooled.copiedBuffer("hi\nthere\n", StandardCharsets.US_ASCII));
        assertEquals("hi\nthere\n", written(ch));
        ch.finishAndReleaseAll();
    }

    @Test
    void aGzipStreamIsInflatedDetectedAgainAndAnsweredCompressed() throws Exception {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
            gz.write("hello gzip\n".getBytes(StandardCharsets.US_ASCII));
        }
        EmbeddedChannel ch = new EmbeddedChannel(new PortUnificationServer.ProtocolDetector(null, DEFAULT_LIMITS));
        ch.writeInbound(Unpooled.wrappedBuffer(zipped.toByteArray()));
        byte[] answer = written(ch).getBytes(StandardCharsets.ISO_8859_1);
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(answer));
        byte[] buf = new byte[64];
        for (int n; plain.size() < 11 && (n = in.read(buf)) > 0; ) {
            plain.write(buf, 0, n);
        }
        assertEquals("hello gzip\n", plain.toString(StandardCharsets.US_ASCII));
        ch.finishAndReleaseAll();
    }
}
