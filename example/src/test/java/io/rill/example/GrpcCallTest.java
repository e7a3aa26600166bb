package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http2.Http2DataFrame;
import io.rill.handler.codec.http2.Http2Error;
import io.rill.handler.codec.http2.Http2Headers;
import io.rill.handler.codec.http2.Http2HeadersFrame;
import io.rill.handler.codec.http2.Http2ResetFrame;
import io.rill.handler.codec.http2.Http2WindowUpdateFrame;

/** The gRPC call logic of {@code grpc-echo}, frame by frame, with the loop's clock in the test's hands. */
class GrpcCallTest {

    private final EmbeddedChannel channel = new EmbeddedChannel(new GrpcEchoServer.GrpcCalls());

    @AfterEach
    void release() {
        channel.finishAndReleaseAll();
    }

    @Test
    void aMessageSplitAcrossFramesIsEchoedWholeWithItsStatus() {
        channel.writeInbound(new Http2HeadersFrame(1, call(GrpcCall.UNARY, null), false));
        ByteBuf message = Unpooled.buffer().writeByte(0).writeInt(3).writeBytes(new byte[] {1, 2, 3});
        channel.writeInbound(new Http2DataFrame(1, message.readRetainedSlice(4), false));
        channel.writeInbound(new Http2DataFrame(1, message, true));
        assertEquals(new Http2WindowUpdateFrame(1, 4), channel.readOutbound());
        assertEquals(new Http2WindowUpdateFrame(1, 4), channel.readOutbound());
        Http2HeadersFrame head = channel.readOutbound();
        assertEquals("200", head.headers().status().toString());
        Http2DataFrame echo = channel.readOutbound();
        assertEquals(8, echo.content().readableBytes());
        echo.release();
        Http2HeadersFrame trailers = channel.readOutbound();
        assertTrue(trailers.endStream());
        assertEquals("0", trailers.headers().get("grpc-status").toString());
        assertNull(channel.readOutbound());
    }

    @Test
    void aCallPastItsGrpcTimeoutEndsWithDeadlineExceededAndAReset() {
        channel.writeInbound(new Http2HeadersFrame(3, call(GrpcCall.STREAM, "100m"), false));
        channel.advanceTimeBy(99, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertNull(channel.readOutbound());
        channel.advanceTimeBy(2, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        Http2HeadersFrame trailersOnly = channel.readOutbound();
        assertEquals("4", trailersOnly.headers().get("grpc-status").toString());
        assertEquals("200", trailersOnly.headers().status().toString());
        assertEquals(new Http2ResetFrame(3, Http2Error.CANCEL), channel.readOutbound());
    }

    @Test
    void aCompressedMessageWithoutAnEncodingIsInternal() {
        channel.writeInbound(new Http2HeadersFrame(5, call(GrpcCall.UNARY, null), false));
        channel.writeInbound(new Http2DataFrame(5, Unpooled.buffer().writeByte(1).writeInt(0), true));
        assertInstanceOf(Http2WindowUpdateFrame.class, channel.readOutbound());
        Http2HeadersFrame trailers = channel.readOutbound();
        assertEquals("13", trailers.headers().get("grpc-status").toString());
    }

    @Test
    void theTimeoutGrammarHasEveryUnit() {
        assertEquals(TimeUnit.HOURS.toNanos(2), GrpcCall.timeoutNanos("2H"));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(100), GrpcCall.timeoutNanos("100m"));
        assertEquals(7, GrpcCall.timeoutNanos("7n"));
        assertEquals(-1, GrpcCall.timeoutNanos("123456789S"), "at most 8 digits");
        assertEquals(-1, GrpcCall.timeoutNanos("10x"));
    }

    private static Http2Headers call(String path, String timeout) {
        Http2Headers h = new Http2Headers().method("POST").scheme("http").authority("localhost").path(path)
                .add("content-type", "application/grpc").add("te", "trailers");
        if (timeout != null) {
            h.add("grpc-timeout", timeout);
        }
        return h;
    }
}
