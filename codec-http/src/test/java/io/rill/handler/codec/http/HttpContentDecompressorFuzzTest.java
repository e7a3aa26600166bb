package io.rill.handler.codec.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;
import io.rill.handler.codec.compression.DecompressionException;

/**
 * Fuzz target for {@link HttpContentDecompressor} behind {@link HttpServerCodec}, over every coding
 * it knows and two stacks of them: the payload's first byte picks the {@code Content-Encoding},
 * the rest is the body of one request. Whole and in fuzzer-chosen pieces the application sees the
 * same thing (on failure: the same kind of failure, one body a prefix of the other); the decoded
 * body never passes the cap (docs/security-cases.md C-05, §2.5); only a
 * {@link DecompressionException} is fired; nothing leaks.
 *
 * <p>Seeds in {@code src/test/resources/io/rill/handler/codec/http/HttpContentDecompressorFuzzTestInputs/body/}:
 * a small text in each coding, a br and a zstd bomb, a truncated and a corrupted stream.
 */
class HttpContentDecompressorFuzzTest {

    /** Small, so a fuzzer-made bomb reaches it within one input. */
    private static final int CAP = 64 * 1024;
    static final String[] CODINGS = {"gzip", "deflate", "br", "zstd", "gzip, br", "br, zstd"};

    /** What reached the application: the decoded body, and the failure (null if none) or the end. */
    private record Outcome(byte[] body, Throwable failure, boolean ended) {
    }

    @FuzzTest
    void body(byte[] input) {
        FuzzLeaks.assertNoneReported();
        byte[] payload = FuzzInput.payload(input);
        if (payload.length == 0) {
            return;
        }
        String coding = CODINGS[(payload[0] & 0xff) % CODINGS.length];
        byte[] head = ("POST / HTTP/1.1\r\nHost: f\r\nContent-Encoding: " + coding + "\r\nContent-Length: "
                + (payload.length - 1) + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        byte[] request = new byte[head.length + payload.length - 1];
        System.arraycopy(head, 0, request, 0, head.length);
        System.arraycopy(payload, 1, request, head.length, payload.length - 1);
        List<Integer> cuts = new ArrayList<>();
        for (byte[] piece : FuzzInput.pieces(input)) {
            cuts.add(piece.length);
        }
        Outcome whole = run(request, List.of(request.length));
        Outcome pieces = run(request, cuts);
        for (Outcome o : new Outcome[] {whole, pieces}) {
            assertTrue(o.body.length <= CAP, "decoded " + o.body.length + " bytes, over the cap");
            if (o.failure != null) {
                assertInstanceOf(DecompressionException.class, o.failure);
            }
        }
        assertEquals(whole.failure == null, pieces.failure == null,
                () -> "whole: " + whole.failure + ", in pieces: " + pieces.failure);
        if (whole.failure == null) {
            assertEquals(whole.ended, pieces.ended);
            assertTrue(java.util.Arrays.equals(whole.body, pieces.body), "decoded whole and in pieces");
        } else {
            int n = Math.min(whole.body.length, pieces.body.length);
            assertTrue(java.util.Arrays.equals(whole.body, 0, n, pieces.body, 0, n), "one body a prefix of the other");
        }
    }

    /** Feeds {@code request} cut into {@code cuts} (the rest in one piece) and returns what the application saw. */
    private static Outcome run(byte[] request, List<Integer> cuts) {
        Recorder app = new Recorder();
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(),
                HttpContentDecompressor.builder().maxDecodedBytes(CAP).build(), app);
        int at = 0;
        for (int i = 0; at < request.length && ch.isOpen(); i++) {
            int n = i < cuts.size() ? Math.min(cuts.get(i), request.length - at) : request.length - at;
            ch.writeInbound(Unpooled.copiedBuffer(request, at, n));
            at += n;
        }
        ch.finishAndReleaseAll();
        return new Outcome(app.body.toByteArray(), app.failure, app.ended);
    }

    private static final class Recorder implements ChannelHandler {
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        Throwable failure;
        boolean ended;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpContent c) {
                ByteBuf b = c.content();
                byte[] bytes = new byte[b.readableBytes()];
                b.getBytes(b.readerIndex(), bytes);
                body.writeBytes(bytes);
                ended |= msg instanceof LastHttpContent;
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (failure == null) {
                failure = cause;
            }
        }
    }
}
