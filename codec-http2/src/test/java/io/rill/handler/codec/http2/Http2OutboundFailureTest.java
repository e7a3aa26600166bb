package io.rill.handler.codec.http2;

import static io.rill.handler.codec.http2.PeerDriver.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * When the bytes of a flush cannot be written, every frame in them learns it: a frame written with
 * a promise through its future, frames written with the void promise through one
 * {@code exceptionCaught}, as the void promise promises.
 */
class Http2OutboundFailureTest {

    private static final Http2Config CONFIG = new Http2Config(true, 100, 65_535, 65_535, 8192, 4096, 10_000);
    private static final IOException REFUSED = new IOException("the socket refused the write");

    private final TextFieldCodec fields = new TextFieldCodec();
    private final List<Throwable> caught = new ArrayList<>();
    private final EmbeddedChannel channel = new EmbeddedChannel(new RefuseWrites(),
            new Http2FrameCodec(CONFIG, fields, fields), new ChannelHandler() {
                @Override
                public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                    caught.add(cause);
                }
            });
    private final PeerDriver peer = new PeerDriver(channel, true);

    @AfterEach
    void release() {
        channel.finishAndReleaseAll();
        peer.release();
    }

    @Test
    void framesWrittenWithTheVoidPromiseReportAFailedWriteOnceToThePipeline() throws Exception {
        openStreams(1, 3);
        channel.write(new Http2HeadersFrame(1, new Http2Headers().status("204"), true), channel.voidPromise());
        channel.write(new Http2HeadersFrame(3, new Http2Headers().status("204"), true), channel.voidPromise());
        channel.flush();
        assertEquals(List.of(REFUSED), caught);
    }

    @Test
    void aFrameWithAPromiseFailsWithItsWriteAlongsideVoidOnes() throws Exception {
        openStreams(1, 3);
        Future<Void> answer = channel.write(new Http2HeadersFrame(1, new Http2Headers().status("204"), true));
        channel.write(new Http2HeadersFrame(3, new Http2Headers().status("204"), true), channel.voidPromise());
        channel.flush();
        assertTrue(answer.isDone());
        assertSame(REFUSED, answer.cause());
        assertEquals(List.of(REFUSED), caught);
    }

    private void openStreams(int... ids) throws Exception {
        peer.handshake();
        peer.inbound(out -> {
            for (int id : ids) {
                peer.writer.writeHeaders(out, id, request("GET", "/"), true);
            }
        });
        for (int i = 0; i < ids.length; i++) {
            channel.<Http2HeadersFrame>readInbound();
        }
        caught.clear();
    }

    /** The socket's stand-in: every write fails. */
    private static final class RefuseWrites implements ChannelHandler {
        @Override
        public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
            ReferenceCountUtil.release(msg);
            promise.tryFailure(REFUSED);
        }
    }
}
