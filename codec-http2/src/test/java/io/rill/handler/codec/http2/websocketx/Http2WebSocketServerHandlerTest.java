package io.rill.handler.codec.http2.websocketx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.net.URI;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.websocketx.WebSocketClientHandshaker;
import io.rill.handler.codec.http.websocketx.WebSocketExtensionNegotiator;
import io.rill.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.rill.handler.codec.http2.Http2DataFrame;
import io.rill.handler.codec.http2.Http2Headers;
import io.rill.handler.codec.http2.Http2HeadersFrame;

/**
 * {@link Http2WebSocketServerHandler#of} takes the HTTP/1.1 builder's settings as they are when it is
 * called, and the client's extended CONNECT carries the handshaker's offers; on an
 * {@link EmbeddedChannel} standing for one stream.
 */
class Http2WebSocketServerHandlerTest {

    private static Http2Headers connect(String path, String subprotocols) {
        Http2Headers fields = new Http2Headers().method("CONNECT").set(Http2Headers.PROTOCOL, "websocket")
                .scheme("http").authority("localhost").path(path).set("sec-websocket-version", "13");
        return subprotocols == null ? fields : fields.set("sec-websocket-protocol", subprotocols);
    }

    @Test
    void laterChangesToTheBuilderDoNotReachTheHandler() {
        WebSocketServerProtocolHandler.Builder builder = WebSocketServerProtocolHandler.builder("/ws")
                .subprotocols("chat");
        ChannelHandler handler = Http2WebSocketServerHandler.of(builder);
        builder.subprotocols("other").pathPrefix(true);

        EmbeddedChannel accepted = new EmbeddedChannel(handler);
        accepted.writeInbound(new Http2HeadersFrame(0, connect("/ws", "other, chat"), false));
        Http2HeadersFrame answer = accepted.readOutbound();
        assertEquals("200", answer.headers().status().toString());
        assertEquals("chat", answer.headers().get("sec-websocket-protocol").toString());
        assertFalse(answer.endStream(), "the stream carries the WebSocket");
        accepted.finishAndReleaseAll();

        EmbeddedChannel below = new EmbeddedChannel(handler);
        Http2HeadersFrame request = new Http2HeadersFrame(0, connect("/ws/room", null), false);
        below.writeInbound(request);
        assertSame(request, below.readInbound(), "not the handler's path when it was made: passed on untouched");
        assertNull(below.readOutbound());
        below.finishAndReleaseAll();
    }

    @Test
    void theExtendedConnectCarriesTheHandshakersUriAndOffers() {
        WebSocketClientHandshaker handshaker = new WebSocketClientHandshaker(
                URI.create("wss://example.com:8443/chat?room=1"), List.of("chat", "superchat"),
                new HttpHeaders().set("Origin", "https://example.com"), "permessage-deflate",
                WebSocketExtensionNegotiator.NONE);
        Http2Headers fields = Http2WebSocketClientHandler.extendedConnect(handshaker);
        assertEquals("CONNECT", fields.method().toString());
        assertEquals("websocket", fields.protocol().toString());
        assertEquals("https", fields.scheme().toString());
        assertEquals("example.com:8443", fields.authority().toString());
        assertEquals("/chat?room=1", fields.path().toString());
        assertEquals("13", fields.get("sec-websocket-version").toString());
        assertEquals("chat, superchat", fields.get("sec-websocket-protocol").toString());
        assertEquals("permessage-deflate", fields.get("sec-websocket-extensions").toString());
        assertEquals("https://example.com", fields.get("origin").toString(), "extra fields, named in lower case");
        assertNull(fields.get("sec-websocket-key"), "RFC 8441 §5: no key");
    }

    @Test
    void aRequestThatEndsItsStreamIsRefusedWith400() {
        EmbeddedChannel ch = new EmbeddedChannel(Http2WebSocketServerHandler.of(
                WebSocketServerProtocolHandler.builder("/ws")));
        ch.writeInbound(new Http2HeadersFrame(0, connect("/ws", null), true));
        Http2HeadersFrame answer = ch.readOutbound();
        assertEquals("400", answer.headers().status().toString());
        assertNull(answer.headers().get("connection"), "no HTTP/1.1 connection field over HTTP/2");
        Object body = ch.readOutbound();
        assertInstanceOf(Http2DataFrame.class, body);
        ReferenceCountUtil.release(body);
        ch.finishAndReleaseAll();
    }
}
