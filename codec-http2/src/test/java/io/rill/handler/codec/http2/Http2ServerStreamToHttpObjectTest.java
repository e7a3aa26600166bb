package io.rill.handler.codec.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.DefaultHttpContent;
import io.rill.handler.codec.http.DefaultHttpResponse;
import io.rill.handler.codec.http.DefaultLastHttpContent;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpContent;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponse;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.codec.http.LastHttpContent;

/** {@link Http2StreamFrameToHttpObjectCodec} on the server side: requests in, responses out. */
class Http2ServerStreamToHttpObjectTest {

    private EmbeddedChannel channel = new EmbeddedChannel(new Http2StreamFrameToHttpObjectCodec(true));

    @AfterEach
    void release() {
        channel.finishAndReleaseAll();
    }

    @Test
    void aRequestHeadBecomesAnHttpRequestWithHostAndOneCookieField() {
        channel.writeInbound(new Http2HeadersFrame(3, request("GET", "/a?b=c")
                .add("cookie", "a=1").add("accept", "*/*").add("cookie", "b=2"), true));
        HttpRequest request = channel.readInbound();
        assertEquals(HttpMethod.GET, request.method());
        assertEquals("/a?b=c", request.uri());
        assertEquals(HttpVersion.HTTP_1_1, request.protocolVersion());
        assertEquals("example.com", request.headers().get("Host"));
        assertEquals("a=1; b=2", request.headers().get("cookie"));
        assertEquals(1, request.headers().getAll("cookie").size());
        assertEquals("*/*", request.headers().get("accept"));
        assertSame(LastHttpContent.EMPTY_LAST_CONTENT, channel.readInbound(), "the stream ended with its head");
        assertNull(channel.readInbound());
    }

    @Test
    void dataBecomesContentAndFinalHeadersBecomeTheTrailers() {
        channel.writeInbound(new Http2HeadersFrame(1, request("POST", "/echo"), false));
        channel.writeInbound(new Http2DataFrame(1, text("hello "), 6, false));
        channel.writeInbound(new Http2DataFrame(1, text("world"), 5, false));
        channel.writeInbound(new Http2HeadersFrame(1, new Http2Headers().add("grpc-status", "0"), true));
        HttpRequest request = channel.readInbound();
        assertEquals("chunked", request.headers().get("transfer-encoding"), "HTTP/1 code must see that a body follows");
        assertEquals("hello ", content(channel.readInbound()));
        assertEquals("world", content(channel.readInbound()));
        LastHttpContent last = channel.readInbound();
        assertEquals("0", last.trailingHeaders().get("grpc-status"));
        assertFalse(last.content().isReadable());
        last.release();
    }

    @Test
    void aContentLengthIsKeptAndTheLastDataEndsTheMessage() {
        channel.writeInbound(new Http2HeadersFrame(1, request("PUT", "/x").add("content-length", "3"), false),
                new Http2DataFrame(1, text("abc"), 3, true));
        HttpRequest request = channel.readInbound();
        assertEquals("3", request.headers().get("content-length"));
        assertFalse(request.headers().contains("transfer-encoding"));
        HttpContent last = channel.readInbound();
        assertInstanceOf(LastHttpContent.class, last);
        assertEquals("abc", content(last));
    }

    @Test
    void creditIsReturnedByTheAdapterOnlyWhenAsked() {
        channel.writeInbound(new Http2HeadersFrame(1, request("POST", "/"), false),
                new Http2DataFrame(1, text("abc"), 10, false));
        channel.<HttpRequest>readInbound();
        content(channel.readInbound());
        assertNull(channel.readOutbound(), "by default the stream channel returns the credit");

        fresh(new Http2StreamFrameToHttpObjectCodec(true, true, null));
        channel.writeInbound(new Http2HeadersFrame(1, request("POST", "/"), false),
                new Http2DataFrame(1, text("abc"), 10, false));
        assertEquals(new Http2WindowUpdateFrame(1, 10), channel.readOutbound(), "padding included");
        channel.<HttpRequest>readInbound();
        content(channel.readInbound());
    }

    @Test
    void aResponseHeadLosesItsConnectionSpecificFields() {
        readRequest("GET");
        HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        response.headers().set("Content-Type", "text/plain").set("Connection", "keep-alive, X-Hop")
                .set("Keep-Alive", "timeout=5").set("Transfer-Encoding", "chunked").set("Upgrade", "h2c")
                .set("X-Hop", "1").set("Content-Length", "5");
        channel.writeOutbound(response, new DefaultLastHttpContent(text("hello")));
        Http2HeadersFrame head = channel.readOutbound();
        assertEquals(5, head.streamId());
        assertEquals("Http2Headers[:status: 200, content-type: text/plain, content-length: 5]", head.headers().toString());
        assertFalse(head.endStream());
        Http2DataFrame data = channel.readOutbound();
        assertEquals("hello", data.content().toString(StandardCharsets.US_ASCII));
        assertTrue(data.endStream());
        data.release();
    }

    @Test
    void aFullResponseIsHeadersAndDataOrHeadersAloneWhenEmpty() {
        readRequest("GET");
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, text("hi")));
        assertFalse(channel.<Http2HeadersFrame>readOutbound().endStream());
        Http2DataFrame data = channel.readOutbound();
        assertTrue(data.endStream());
        data.release();

        fresh();
        readRequest("GET");
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NO_CONTENT));
        Http2HeadersFrame empty = channel.readOutbound();
        assertTrue(empty.endStream(), "no content: the head ends the stream");
        assertEquals("204", empty.headers().status().toString());
    }

    @Test
    void trailersGoOutAsAFinalHeadersAfterTheContent() {
        readRequest("POST");
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, text("x"));
        response.trailingHeaders().set("Grpc-Status", "0").set("Connection", "close");
        channel.writeOutbound(response);
        assertFalse(channel.<Http2HeadersFrame>readOutbound().endStream());
        Http2DataFrame data = channel.readOutbound();
        assertFalse(data.endStream());
        data.release();
        Http2HeadersFrame trailers = channel.readOutbound();
        assertTrue(trailers.endStream());
        assertEquals("Http2Headers[grpc-status: 0]", trailers.headers().toString());

        fresh();
        readRequest("POST");
        channel.writeOutbound(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK),
                new DefaultHttpContent(text("a")), new DefaultHttpContent(Unpooled.EMPTY_BUFFER),
                new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER, new io.rill.handler.codec.http.HttpHeaders().add("t", "1")));
        channel.<Http2HeadersFrame>readOutbound();
        Http2DataFrame piece = channel.readOutbound();
        assertEquals(1, piece.content().readableBytes(), "the empty piece is not sent");
        piece.release();
        Http2HeadersFrame last = channel.readOutbound();
        assertEquals("Http2Headers[t: 1]", last.headers().toString());
        assertTrue(last.endStream());
    }

    @Test
    void informationalResponsesComeBeforeTheFinalOne() {
        readRequest("POST");
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE),
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.EARLY_HINTS),
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        for (String status : new String[] {"100", "103"}) {
            Http2HeadersFrame informational = channel.readOutbound();
            assertEquals(status, informational.headers().status().toString());
            assertFalse(informational.endStream());
        }
        assertTrue(channel.<Http2HeadersFrame>readOutbound().endStream());
    }

    @Test
    void aResponseToHeadEndsWithItsHeadAndItsContentIsDropped() {
        readRequest("HEAD");
        HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        response.headers().setInt("content-length", 1000);
        ByteBuf body = text("not sent");
        channel.writeOutbound(response, new DefaultLastHttpContent(body));
        Http2HeadersFrame head = channel.readOutbound();
        assertTrue(head.endStream());
        assertEquals("1000", head.headers().get("content-length").toString(), "HEAD keeps the length of what GET would send");
        assertNull(channel.readOutbound());
        assertEquals(0, body.refCnt());
    }

    @Test
    void otherMessagesPassThrough() {
        Http2ResetFrame reset = new Http2ResetFrame(1, Http2Error.CANCEL);
        channel.writeInbound(reset);
        assertSame(reset, channel.readInbound());
        channel.writeOutbound(reset);
        assertSame(reset, channel.readOutbound());
    }

    /** A new stream: the adapter serves one stream only. */
    private void fresh() {
        fresh(new Http2StreamFrameToHttpObjectCodec(true));
    }

    private void fresh(Http2StreamFrameToHttpObjectCodec adapter) {
        channel.finishAndReleaseAll();
        channel = new EmbeddedChannel(adapter);
    }

    private void readRequest(String method) {
        channel.writeInbound(new Http2HeadersFrame(5, request(method, "/"), true));
        channel.<HttpRequest>readInbound();
        channel.<LastHttpContent>readInbound();
    }

    static Http2Headers request(String method, String path) {
        return new Http2Headers().method(method).scheme("https").authority("example.com").path(path);
    }

    static ByteBuf text(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.US_ASCII);
    }

    static String content(HttpContent content) {
        try {
            return content.content().toString(StandardCharsets.US_ASCII);
        } finally {
            content.release();
        }
    }
}
