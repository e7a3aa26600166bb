package io.rill.handler.codec.http.cors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.DefaultFullHttpRequest;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.DefaultHttpContent;
import io.rill.handler.codec.http.DefaultHttpRequest;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.codec.http.LastHttpContent;

/**
 * Preflights, simple requests, credentials, Vary (H1-19), and pipelining (bounded).
 *
 * <p>A test named after a case ID ({@code h1_17_...}) checks that case of docs/security-cases.md.
 */
class CorsHandlerTest {

    private static final String APP = "https://app.example";

    private static CorsConfig appOnly() {
        return CorsConfig.forOrigins(APP).allowCredentials().allowedRequestMethods(HttpMethod.GET, HttpMethod.PUT)
                .allowedRequestHeaders("Content-Type", "X-Token").exposeHeaders("X-Total").maxAge(600).build();
    }

    private static HttpRequest request(HttpMethod method, String origin) {
        HttpRequest r = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, "/api");
        if (origin != null) {
            r.headers().set(HttpHeaderNames.ORIGIN, origin);
        }
        return r;
    }

    private static HttpRequest preflight(String origin, String method, String headers) {
        HttpRequest r = request(HttpMethod.OPTIONS, origin);
        r.headers().set(HttpHeaderNames.ACCESS_CONTROL_REQUEST_METHOD, method);
        if (headers != null) {
            r.headers().set(HttpHeaderNames.ACCESS_CONTROL_REQUEST_HEADERS, headers);
        }
        return r;
    }

    /** Sends {@code request}; answers it with 200 (carrying {@code vary}) if the application got it. */
    private static FullHttpResponse exchange(EmbeddedChannel ch, HttpRequest request, String vary) {
        ch.writeInbound(request);
        Object got = ch.readInbound();
        if (got != null) {
            ReferenceCountUtil.release(got);
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            if (vary != null) {
                r.headers().set(HttpHeaderNames.VARY, vary);
            }
            ch.writeOutbound(r);
        }
        return ch.readOutbound();
    }

    @Test
    void answersAnAllowedPreflightItself() {
        EmbeddedChannel ch = new EmbeddedChannel(new CorsHandler(appOnly()));
        FullHttpResponse r = exchange(ch, preflight(APP, "PUT", "content-type, X-Token"), null);
        assertEquals(200, r.status().code());
        assertEquals(APP, r.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN));
        assertEquals("true", r.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_CREDENTIALS));
        assertEquals("GET, PUT", r.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_METHODS));
        assertEquals("content-type, x-token", r.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_HEADERS));
        assertEquals("600", r.headers().get(HttpHeaderNames.ACCESS_CONTROL_MAX_AGE));
        assertEquals("Origin", r.headers().get(HttpHeaderNames.VARY));
        assertEquals("0", r.headers().get(HttpHeaderNames.CONTENT_LENGTH));
        r.release();
        assertTrue(ch.isOpen());
        assertFalse(ch.finish());
    }

    @Test
    void refusesAPreflightForAnotherOriginMethodOrHeader() {
        for (HttpRequest p : new HttpRequest[] {preflight("https://evil.example", "GET", null),
                preflight(APP, "DELETE", null), preflight(APP, "GET", "x-other")}) {
            EmbeddedChannel ch = new EmbeddedChannel(new CorsHandler(appOnly()));
            FullHttpResponse r = exchange(ch, p, null);
            assertEquals(403, r.status().code());
            assertNull(r.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN));
            r.release();
            ch.finish();
        }
    }

    @Test
    void decoratesTheResponseOfAnAllowedRequestOnly() {
        EmbeddedChannel ch = new EmbeddedChannel(new CorsHandler(appOnly()));
        FullHttpResponse allowed = exchange(ch, request(HttpMethod.GET, APP), null);
        assertEquals(APP, allowed.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN));
        assertEquals("X-Total", allowed.headers().get(HttpHeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS));
        allowed.release();
        FullHttpResponse other = exchange(ch, request(HttpMethod.GET, "https://evil.example"), null);
        assertNull(other.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN));
        other.release();
        FullHttpResponse sameOrigin = exchange(ch, request(HttpMethod.GET, null), null);
        assertNull(sameOrigin.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN));
        sameOrigin.release();
        ch.finish();
    }

    /** H1-19: the application's {@code Vary: Cookie} stays; {@code Origin} is added beside it. */
    @Test
    void h1_19_originIsAppendedToAnExistingVary() {
        EmbeddedChannel ch = new EmbeddedChannel(new CorsHandler(appOnly()));
        FullHttpResponse r = exchange(ch, request(HttpMethod.GET, APP), "Cookie");
        assertEquals("Cookie, Origin", r.headers().get(HttpHeaderNames.VARY));
        r.release();
        FullHttpResponse already = exchange(ch, request(HttpMethod.GET, APP), "origin, Accept-Encoding");
        assertEquals("origin, Accept-Encoding", already.headers().get(HttpHeaderNames.VARY));
        already.release();
        ch.finish();
    }

    @Test
    void anyOriginIsAStarUnlessCredentialsAreAllowed() {
        EmbeddedChannel star = new EmbeddedChannel(new CorsHandler(CorsConfig.forAnyOrigin().build()));
        FullHttpResponse r = exchange(star, request(HttpMethod.GET, "https://x.example"), null);
        assertEquals("*", r.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN));
        r.release();
        FullHttpResponse nullOrigin = exchange(star, request(HttpMethod.GET, "null"), null);
        assertNull(nullOrigin.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN), "null is not allowed by default");
        nullOrigin.release();
        star.finish();
        EmbeddedChannel creds = new EmbeddedChannel(new CorsHandler(CorsConfig.forAnyOrigin().allowCredentials().build()));
        FullHttpResponse echoed = exchange(creds, request(HttpMethod.GET, "https://x.example"), null);
        assertEquals("https://x.example", echoed.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN));
        echoed.release();
        creds.finish();
    }

    @Test
    void shortCircuitAnswers403AndDropsTheBody() {
        EmbeddedChannel ch = new EmbeddedChannel(new CorsHandler(CorsConfig.forOrigins(APP).shortCircuit().build()));
        HttpRequest head = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/");
        head.headers().set(HttpHeaderNames.ORIGIN, "https://evil.example");
        ch.writeInbound(head, new DefaultHttpContent(io.rill.buffer.Unpooled.copiedBuffer(new byte[10])),
                LastHttpContent.EMPTY_LAST_CONTENT);
        assertNull(ch.readInbound());
        FullHttpResponse r = ch.readOutbound();
        assertEquals(403, r.status().code());
        r.release();
        FullHttpResponse next = exchange(ch, request(HttpMethod.GET, APP), null);
        assertEquals(APP, next.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN));
        next.release();
        ch.finish();
    }

    /** H1-17 applied here: many pipelined requests cost a fixed ring; answers stay paired in order. */
    @Test
    void pipelinedRequestsBeyondTheRingGetNoGrant() {
        EmbeddedChannel ch = new EmbeddedChannel(new CorsHandler(appOnly()));
        for (int i = 0; i < 10_000; i++) {
            ch.writeInbound(request(HttpMethod.GET, i % 2 == 0 ? APP : null));
            ReferenceCountUtil.release(ch.readInbound());
        }
        for (int i = 0; i < 200; i++) {
            ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
            FullHttpResponse r = ch.readOutbound();
            String expected = i < CorsHandler.MAX_PENDING && i % 2 == 0 ? APP : null;
            assertEquals(expected, r.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN), "response " + i);
            r.release();
        }
        ch.finish();
    }

    @Test
    void configRefusesHeaderNamesAndOriginsThatCouldSplitAHeader() {
        assertThrows(IllegalArgumentException.class, () -> CorsConfig.forAnyOrigin().exposeHeaders("X-A\r\nX-B").build());
        assertThrows(IllegalArgumentException.class, () -> CorsConfig.forOrigins("https://a\r\nSet-Cookie: x").build());
    }
}
