package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        Http2HeadersFrame head = channel.readOutbound();
        assertEquals("200", head.headers().status().toString());
        Http2DataFrame echo = channel.readOutbound();
        assertEquals(8, echo.content().readableBytes());
        echo.release();
        Http2HeadersFrame trailers = channel.readOutbound();
        assertTrue(trailers.endStream());
        assertEquals("0", trailers.headers().get("grpc-status").toString());
        // The credit comes back once the echo has been written, not as the bytes were parsed.
        assertEquals(new Http2WindowUpdateFrame(1, 8), channel.readOutbound());
        assertNull(channel.readOutbound());
    }

    /**
     * docs/security-cases.md, case H2-23: calls that each hold part of a large message. Two 4 MiB
     * messages fit the connection's budget; a third is refused at its prefix instead of being
     * taken in, and nothing held is credited back to the client until it is consumed or dropped.
     */
    @Test
    void h2_23_aMessageThatDoesNotFitBesideTheMessagesInFlightIsResourceExhausted() {
        for (int id = 1; id <= 5; id += 2) {
            channel.writeInbound(new Http2HeadersFrame(id, call(GrpcCall.UNARY, null), false));
            channel.writeInbound(new Http2DataFrame(id, Unpooled.buffer().writeByte(0).writeInt(GrpcCall.MAX_MESSAGE)
                    .writeZero(1000), false));
        }
        Http2HeadersFrame refused = channel.readOutbound();
        assertEquals(5, refused.streamId());
        assertEquals("8", refused.headers().get("grpc-status").toString());
        assertTrue(refused.headers().get("grpc-message").toString().contains("budget: " + GrpcEchoServer.MAX_HELD_BYTES),
                refused.headers().toString());
        assertEquals(new Http2ResetFrame(5, Http2Error.NO_ERROR), channel.readOutbound());
        assertEquals(new Http2WindowUpdateFrame(5, 1005), channel.readOutbound(), "what the refused call held is credited");
        assertNull(channel.readOutbound(), "the calls in flight hold their bytes: no credit");

        // One call is reset: what it held is credited and its reservation freed, so a new message fits.
        channel.writeInbound(new Http2ResetFrame(1, Http2Error.CANCEL));
        assertEquals(new Http2WindowUpdateFrame(1, 1005), channel.readOutbound());
        channel.writeInbound(new Http2HeadersFrame(7, call(GrpcCall.UNARY, null), false));
        channel.writeInbound(new Http2DataFrame(7, Unpooled.buffer().writeByte(0).writeInt(GrpcCall.MAX_MESSAGE), false));
        assertNull(channel.readOutbound(), "the new message fits");
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
        Http2HeadersFrame trailers = channel.readOutbound();
        assertEquals("13", trailers.headers().get("grpc-status").toString());
        assertEquals(new Http2WindowUpdateFrame(5, 5), channel.readOutbound(), "the dropped message is credited");
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
