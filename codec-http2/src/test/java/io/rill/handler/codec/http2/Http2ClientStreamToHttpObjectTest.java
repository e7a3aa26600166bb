package io.rill.handler.codec.http2;

import static io.rill.handler.codec.http2.Http2ServerStreamToHttpObjectTest.content;
import static io.rill.handler.codec.http2.Http2ServerStreamToHttpObjectTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.DefaultFullHttpRequest;
import io.rill.handler.codec.http.DefaultHttpRequest;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponse;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.codec.http.LastHttpContent;

/** {@link Http2StreamFrameToHttpObjectCodec} on the client side: requests out, responses in. */
class Http2ClientStreamToHttpObjectTest {

    private EmbeddedChannel channel = new EmbeddedChannel(new Http2StreamFrameToHttpObjectCodec(false));

    @AfterEach
    void release() {
        channel.finishAndReleaseAll();
    }

    @Test
    void aRequestHeadGetsPseudoHeaderFieldsAndOneFieldPerCookie() {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/search?q=1");
        request.headers().set("Host", "example.com:8080").set("Cookie", "a=1; b=2;c=3")
                .set("Connection", "keep-alive").set("TE", "trailers, deflate").set("Accept", "*/*");
        channel.writeOutbound(request);
        Http2HeadersFrame head = channel.readOutbound();
        assertEquals(0, head.streamId(), "numbered by the stream channel or the codec");
        assertEquals("Http2Headers[:method: GET, :scheme: http, :authority: example.com:8080, :path: /search?q=1,"
                + " cookie: a=1, cookie: b=2, cookie: c=3, te: trailers, accept: */*]", head.headers().toString());
        assertFalse(head.endStream());
    }

    @Test
    void anAbsoluteTargetGivesItsOwnSchemeAndAuthority() {
        channel.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "https://h.test:444?x=y"));
        Http2HeadersFrame head = channel.readOutbound();
        assertEquals("Http2Headers[:method: GET, :scheme: https, :authority: h.test:444, :path: /?x=y]",
                head.headers().toString());
        assertTrue(head.endStream(), "a full request without content ends with its head");
    }

    @Test
    void connectNamesOnlyTheAuthority() {
        channel.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.CONNECT, "proxy.test:443"));
        Http2HeadersFrame head = channel.readOutbound();
        assertEquals("Http2Headers[:method: CONNECT, :authority: proxy.test:443]", head.headers().toString());
    }

    @Test
    void theConfiguredSchemeWins() {
        channel.finishAndReleaseAll();
        channel = new EmbeddedChannel(new Http2StreamFrameToHttpObjectCodec(false, false, "https"));
        FullHttpRequest post = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/", text("body"));
        post.headers().set("host", "a.test").setInt("content-length", 4);
        channel.writeOutbound(post);
        Http2HeadersFrame head = channel.readOutbound();
        assertEquals("https", head.headers().scheme().toString());
        assertEquals("4", head.headers().get("content-length").toString());
        Http2DataFrame data = channel.readOutbound();
        assertTrue(data.endStream());
        data.release();
    }

    @Test
    void informationalAndFinalResponsesAndTrailersComeIn() {
        channel.writeInbound(new Http2HeadersFrame(1, new Http2Headers().status("103").add("link", "</a.css>"), false),
                new Http2HeadersFrame(1, new Http2Headers().status("200").add("content-type", "text/plain"), false),
                new Http2DataFrame(1, text("ok"), 2, false),
                new Http2HeadersFrame(1, new Http2Headers().add("checksum", "x"), true));
        HttpResponse hints = channel.readInbound();
        assertEquals(HttpResponseStatus.EARLY_HINTS, hints.status());
        assertSame(LastHttpContent.EMPTY_LAST_CONTENT, channel.readInbound());
        HttpResponse response = channel.readInbound();
        assertEquals(HttpResponseStatus.OK, response.status());
        assertEquals("chunked", response.headers().get("transfer-encoding"));
        assertEquals("ok", content(channel.readInbound()));
        LastHttpContent trailers = channel.readInbound();
        assertEquals(List.of("x"), trailers.trailingHeaders().getAll("checksum"));
        trailers.release();
    }

    @Test
    void aResponseThatEndsWithItsHeadSaysItsLengthIsZero() {
        channel.writeInbound(new Http2HeadersFrame(1, new Http2Headers().status("404"), true));
        HttpResponse response = channel.readInbound();
        assertEquals("0", response.headers().get("content-length"));
        assertSame(LastHttpContent.EMPTY_LAST_CONTENT, channel.readInbound());
    }

    @Test
    void aResponseToHeadKeepsTheLengthItAnnouncesAndGetsNoneAdded() {
        channel.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.HEAD, "/h"));
        assertTrue(channel.<Http2HeadersFrame>readOutbound().endStream());
        channel.writeInbound(new Http2HeadersFrame(1, new Http2Headers().status("200"), true));
        HttpResponse response = channel.readInbound();
        assertFalse(response.headers().contains("content-length"), "HEAD: the length of what GET would send is unknown");
        assertSame(LastHttpContent.EMPTY_LAST_CONTENT, channel.readInbound());
    }

    @Test
    void aMalformedStatusResetsTheStream() {
        assertThrows(IllegalArgumentException.class,
                () -> channel.writeInbound(new Http2HeadersFrame(7, new Http2Headers().status("2x0"), true)));
        assertEquals(new Http2ResetFrame(7, Http2Error.PROTOCOL_ERROR), channel.readOutbound());
    }
}
