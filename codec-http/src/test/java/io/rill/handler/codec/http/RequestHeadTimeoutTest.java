package io.rill.handler.codec.http;

import static io.rill.handler.codec.http.HttpCodecTestSupport.bytes;
import static io.rill.handler.codec.http.HttpCodecTestSupport.outbound;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * {@link HttpServerCodec}'s request-head timeout on the loop's manual clock: idle and Slowloris
 * connections (docs/security-cases.md, case L-06) are closed, a request being served is not timed.
 */
class RequestHeadTimeoutTest {

    private static EmbeddedChannel server() {
        return new EmbeddedChannel(new HttpServerCodec(HttpDecoderConfig.DEFAULT, 16, Duration.ofSeconds(10)));
    }

    private static void waitSeconds(EmbeddedChannel ch, int seconds) {
        ch.advanceTimeBy(seconds, TimeUnit.SECONDS);
        ch.runPendingTasks();
    }

    private static void answer(EmbeddedChannel ch) {
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        outbound(ch);
    }

    /** Reads one request (head and end) that reached the application. */
    private static void readRequest(EmbeddedChannel ch) {
        assertInstanceOf(HttpRequest.class, ch.readInbound());
        ReferenceCountUtil.release(ch.readInbound());
    }

    @Test
    void aConnectionThatNeverSendsARequestIsClosedAtTheTimeout() {
        EmbeddedChannel ch = server();
        waitSeconds(ch, 9);
        assertTrue(ch.isOpen(), "open before the timeout");
        waitSeconds(ch, 2);
        assertFalse(ch.isOpen(), "closed after it");
        ch.finish();
    }

    @Test
    void l06_aHeadSentAByteAtATimeIsClosedAtTheTimeoutWhateverArrives() {
        EmbeddedChannel ch = server();
        for (char c : "GET / HTTP/1.1\r\nHost: a\r\nX-a: ".toCharArray()) {
            ch.writeInbound(bytes(String.valueOf(c)));
            waitSeconds(ch, 0);
            if (!ch.isOpen()) {
                break;
            }
            ch.advanceTimeBy(400, TimeUnit.MILLISECONDS);
        }
        waitSeconds(ch, 1);
        assertFalse(ch.isOpen(), "a trickled head is cut off at 10 s, though a byte came every 0.4 s");
        String wire = outbound(ch);
        assertTrue(wire.startsWith("HTTP/1.1 408 Request Timeout\r\n"), wire);
        ch.finish();
    }

    @Test
    void aRequestBeingServedIsNotTimedAndTheClockRestartsAfterItsResponse() {
        EmbeddedChannel ch = server();
        ch.writeInbound(bytes("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n"));
        readRequest(ch);
        waitSeconds(ch, 60);
        assertTrue(ch.isOpen(), "the application may take its time");
        answer(ch);
        waitSeconds(ch, 9);
        assertTrue(ch.isOpen(), "a keep-alive connection gets a full timeout for its next request");
        ch.writeInbound(bytes("GET /next HTTP/1.1\r\nHost: a\r\n\r\n"));
        readRequest(ch);
        answer(ch);
        waitSeconds(ch, 9);
        assertTrue(ch.isOpen());
        waitSeconds(ch, 2);
        assertFalse(ch.isOpen(), "idle for 10 s after the last response");
        ch.finish();
    }

    @Test
    void aPipelinedRequestWaitingForItsTurnKeepsTheConnection() {
        EmbeddedChannel ch = server();
        ch.writeInbound(bytes("GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n"));
        readRequest(ch);
        readRequest(ch);
        answer(ch);
        waitSeconds(ch, 30);
        assertTrue(ch.isOpen(), "the second request still waits for its answer");
        answer(ch);
        waitSeconds(ch, 11);
        assertFalse(ch.isOpen());
        ch.finish();
    }

    @Test
    void aTimeoutMustBePositive() {
        assertThrows(IllegalArgumentException.class,
                () -> new HttpServerCodec(HttpDecoderConfig.DEFAULT, 16, Duration.ZERO));
        assertThrows(IllegalArgumentException.class,
                () -> new HttpServerCodec(HttpDecoderConfig.DEFAULT, 16, Duration.ofSeconds(-1)));
    }
}
