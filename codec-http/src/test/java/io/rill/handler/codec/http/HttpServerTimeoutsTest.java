package io.rill.handler.codec.http;

import static io.rill.handler.codec.http.HttpCodecTestSupport.bytes;
import static io.rill.handler.codec.http.HttpCodecTestSupport.outbound;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.embedded.EmbeddedChannel;

/** {@link HttpServerTimeouts} on the loop's manual clock: idle, header and body limits. */
class HttpServerTimeoutsTest {

    private static final HttpServerTimeouts LIMITS = new HttpServerTimeouts(
            Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(10), 100);

    private static EmbeddedChannel server() {
        return new EmbeddedChannel(new HttpServerCodec(HttpDecoderConfig.DEFAULT, 16, LIMITS));
    }

    private static void waitMillis(EmbeddedChannel ch, long millis) {
        ch.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
    }

    private static void releaseInbound(EmbeddedChannel ch) {
        for (Object msg; (msg = ch.readInbound()) != null; ) {
            ReferenceCountUtil.release(msg);
        }
    }

    @Test
    void anIdleConnectionIsClosedQuietlyAtTheIdleTimeout() {
        EmbeddedChannel ch = server();
        waitMillis(ch, 29_000);
        assertTrue(ch.isOpen());
        waitMillis(ch, 2_000);
        assertFalse(ch.isOpen());
        assertEquals("", outbound(ch), "nothing is said to an idle connection");
        ch.finish();
    }

    @Test
    void theHeaderTimeoutRunsFromTheHeadsFirstByteAndEndsIn408() {
        EmbeddedChannel ch = server();
        waitMillis(ch, 25_000); // idle, but within the idle timeout
        ch.writeInbound(bytes("GET / HTTP/1.1\r\n"));
        waitMillis(ch, 9_000);
        ch.writeInbound(bytes("Host: a\r\n"));
        assertTrue(ch.isOpen(), "9 s into the head");
        waitMillis(ch, 2_000);
        assertFalse(ch.isOpen());
        String wire = outbound(ch);
        assertTrue(wire.startsWith("HTTP/1.1 408 Request Timeout\r\n"), wire);
        assertTrue(wire.contains("Connection: close"), wire);
        ch.finish();
    }

    @Test
    void aBodyThatComesFastEnoughIsNotCutAndOneBelowTheMinimumRateIs408() {
        EmbeddedChannel ch = server();
        ch.writeInbound(bytes("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5000\r\n\r\n"));
        for (int i = 0; i < 20; i++) { // 250 bytes every 2 s: 125 B/s, above the 100 B/s minimum
            waitMillis(ch, 2_000);
            ch.writeInbound(bytes("x".repeat(250)));
        }
        assertTrue(ch.isOpen(), "40 s for a body at 125 B/s is fine");
        releaseInbound(ch);
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        outbound(ch);

        ch.writeInbound(bytes("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5000\r\n\r\n"));
        for (int i = 0; i < 20 && ch.isOpen(); i++) { // 50 bytes every 2 s: 25 B/s
            waitMillis(ch, 2_000);
            if (ch.isOpen()) {
                ch.writeInbound(bytes("x".repeat(50)));
            }
        }
        assertFalse(ch.isOpen(), "a body at 25 B/s is cut off");
        assertTrue(outbound(ch).startsWith("HTTP/1.1 408 Request Timeout\r\n"));
        Object last = null;
        for (Object msg; (msg = ch.readInbound()) != null; ) {
            ReferenceCountUtil.release(last);
            last = msg;
        }
        LastHttpContent end = assertInstanceOf(LastHttpContent.class, last, "the application learns its body failed");
        assertTrue(end.decoderResult().isFailure());
        ch.finish();
    }

    @Test
    void aBodyThatStallsIsCutAtTheBodyTimeoutWhateverCameBefore() {
        EmbeddedChannel ch = server();
        ch.writeInbound(bytes("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1000000\r\n\r\n" + "x".repeat(100_000)));
        waitMillis(ch, 9_000);
        assertTrue(ch.isOpen());
        waitMillis(ch, 2_000);
        assertFalse(ch.isOpen(), "100 kB bought no more than the body timeout");
        releaseInbound(ch);
        assertTrue(outbound(ch).startsWith("HTTP/1.1 408 "));
        ch.finish();
    }

    @Test
    void noTimeoutRunsWhileTheServerItselfStoppedReading() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(HttpDecoderConfig.DEFAULT, 2, LIMITS));
        ch.writeInbound(bytes("GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\nGET /3 HT"));
        assertFalse(ch.config().isAutoRead(), "two unanswered requests: reading stops");
        waitMillis(ch, 60_000);
        assertTrue(ch.isOpen(), "the third head is not late: the server is not reading");
        releaseInbound(ch);
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        outbound(ch);
        assertTrue(ch.config().isAutoRead());
        waitMillis(ch, 11_000);
        assertFalse(ch.isOpen(), "reading again: the head's time runs");
        outbound(ch);
        ch.finish();
    }

    @Test
    void limitsMustBePositiveAndTheRateAtLeastOne() {
        assertThrows(IllegalArgumentException.class, () -> LIMITS.withHeader(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> LIMITS.withIdle(Duration.ofSeconds(-1)));
        assertThrows(IllegalArgumentException.class, () -> LIMITS.withBody(Duration.ofSeconds(1), 0));
        assertEquals(LIMITS, LIMITS.withIdle(Duration.ofSeconds(30)));
    }
}
