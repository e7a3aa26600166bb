package io.rill.handler.codec.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import org.junit.jupiter.api.Test;

import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * {@link HttpRequestRecorder} matches pipelined requests to their responses in order, counts body
 * bytes over several contents, skips interim {@code 1xx} answers, and records nothing for a request
 * read before the recording began. The socket path is covered by the testsuite's JfrEventsTest.
 */
class HttpRequestRecorderTest {

    @Test
    void recordsPipelinedRequestsInOrderWithTheirStatusAndBodyBytes() throws IOException {
        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable("io.rill.HttpRequestServed");
            recording.start();
            EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestRecorder());
            ch.writeInbound(request(HttpMethod.GET, "/a?x=1"), request(HttpMethod.POST, "/b"));
            releaseInbound(ch);

            ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
            ch.writeOutbound(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK),
                    new DefaultHttpContent(Unpooled.copiedBuffer("abc", StandardCharsets.US_ASCII)),
                    new DefaultLastHttpContent(Unpooled.copiedBuffer("de", StandardCharsets.US_ASCII)));
            ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_FOUND));
            assertTrue(ch.finishAndReleaseAll());
            recording.stop();
            events = readBack(recording);
        }
        assertEquals(2, events.size(), events::toString);
        RecordedEvent first = events.get(0);
        assertEquals("GET", first.getString("method"));
        assertEquals("/a", first.getString("path"));
        assertEquals(200, first.getInt("status"));
        assertEquals(5, first.getLong("bytes"));
        RecordedEvent second = events.get(1);
        assertEquals("POST", second.getString("method"));
        assertEquals("/b", second.getString("path"));
        assertEquals(404, second.getInt("status"));
        assertEquals(0, second.getLong("bytes"));
    }

    @Test
    void skipsARequestReadBeforeTheRecordingBegan() throws IOException {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestRecorder());
        ch.writeInbound(request(HttpMethod.GET, "/before"));
        releaseInbound(ch);
        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable("io.rill.HttpRequestServed");
            recording.start();
            ch.writeInbound(request(HttpMethod.GET, "/during"));
            releaseInbound(ch);
            ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
            ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.ACCEPTED));
            assertTrue(ch.finishAndReleaseAll());
            recording.stop();
            events = readBack(recording);
        }
        assertEquals(1, events.size(), events::toString);
        assertEquals("/during", events.get(0).getString("path"));
        assertEquals(202, events.get(0).getInt("status"));
    }

    @Test
    void isOffInARecordingThatDoesNotAskForIt() throws IOException {
        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable("io.rill.TaskLag"); // another Rill event: HttpRequestServed stays off
            recording.start();
            EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestRecorder());
            ch.writeInbound(request(HttpMethod.GET, "/"));
            releaseInbound(ch);
            ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
            assertTrue(ch.finishAndReleaseAll());
            recording.stop();
            events = readBack(recording);
        }
        assertFalse(events.stream().anyMatch(e -> e.getEventType().getName().equals("io.rill.HttpRequestServed")));
    }

    private static HttpRequest request(HttpMethod method, String uri) {
        return new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, uri);
    }

    private static void releaseInbound(EmbeddedChannel ch) {
        for (Object msg; (msg = ch.readInbound()) != null; ) {
            io.rill.buffer.ReferenceCountUtil.release(msg);
        }
    }

    private static List<RecordedEvent> readBack(Recording recording) throws IOException {
        Path file = Files.createTempFile("rill-http-jfr", ".jfr");
        try {
            recording.dump(file);
            return RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().equals("io.rill.HttpRequestServed"))
                    .collect(Collectors.toList());
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
