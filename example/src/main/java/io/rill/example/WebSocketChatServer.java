package io.rill.example;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.AttributeKey;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.group.ChannelGroup;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaderValues;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.rill.handler.codec.http.websocketx.TextWebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.rill.handler.codec.http.websocketx.WebSocketHandshakeComplete;
import io.rill.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.rill.util.InternalLogger;

/**
 * A chat room in the browser: {@code GET /} serves a page whose script joins the room over a
 * WebSocket at {@code /ws}; every text message a member sends goes to every member, sender
 * included, prefixed with its sender's name. A member that lets more than {@code --max-queued}
 * bytes of messages wait for it is disconnected (close 1008) rather than buffered for. Open
 * {@code http://127.0.0.1:8080/} in two tabs.
 */
final class WebSocketChatServer implements Example {

    private static final ExampleOption MAX_MESSAGE = ExampleOption.number("max-message", "BYTES", 4096, 125, 1 << 20,
            "the largest message a member may send (close 1009 beyond)");
    private static final ExampleOption MAX_QUEUED = ExampleOption.number("max-queued", "BYTES", 1 << 20, 1 << 16, 1 << 30,
            "messages waiting for one member beyond which it is disconnected");

    @Override
    public String name() {
        return "websocket-chat";
    }

    @Override
    public String description() {
        return "a browser chat room: the page at /, the room over WebSocket at /ws";
    }

    @Override
    public List<ExampleOption> options() {
        return List.of(MAX_MESSAGE, MAX_QUEUED);
    }

    @Override
    public List<String> limits() {
        return List.of("message: --max-message bytes, 4 KiB by default (close 1009 beyond)",
                "messages waiting for one member: --max-queued bytes, 1 MiB by default (close 1008 beyond)",
                ServerRunner.READING_LIMIT);
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        ServerRunner.run(options, name(), initializer(options.intValue(MAX_MESSAGE), options.intValue(MAX_QUEUED)));
    }

    /** Every connection's pipeline; one room shared by all of them. */
    static ChannelInitializer<Channel> initializer(int maxMessage, int maxQueued) {
        Room room = new Room(new ChannelGroup("websocket-chat"), maxQueued);
        byte[] page = page();
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpServerCodec(),
                        WebSocketServerProtocolHandler.builder("/ws").maxPayload(maxMessage, maxMessage).build(),
                        new WebSocketFrameAggregator(maxMessage), new Page(page), room);
            }
        };
    }

    private static byte[] page() {
        try (InputStream in = WebSocketChatServer.class.getResourceAsStream("websocket-chat.html")) {
            if (in == null) {
                throw new IllegalStateException("websocket-chat.html is missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Answers plain HTTP requests: the page at {@code /}, 404 elsewhere; one connection, one request. */
    static final class Page implements ChannelHandler {
        private final byte[] page;

        Page(byte[] page) {
            this.page = page;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof HttpRequest request)) {
                ctx.fireChannelRead(msg);
                return;
            }
            ReferenceCountUtil.release(msg);
            boolean found = request.method().equals(HttpMethod.GET) && request.uri().split("\\?", 2)[0].equals("/");
            byte[] body = found ? page : "not found\n".getBytes(StandardCharsets.US_ASCII);
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                    found ? HttpResponseStatus.OK : HttpResponseStatus.NOT_FOUND, Unpooled.wrappedBuffer(body));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, found ? "text/html; charset=utf-8" : "text/plain")
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                    .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(f -> ctx.close());
        }
    }

    /** The room: members join when their handshake completes; the group forgets them when they close. */
    @ChannelHandler.Sharable
    static final class Room implements ChannelHandler {
        private static final InternalLogger LOG = InternalLogger.get(Room.class);
        /** Bytes of messages handed to a member's channel and not yet written out. */
        private static final AttributeKey<AtomicLong> BACKLOG = AttributeKey.valueOf("websocket-chat.backlog");

        private final ChannelGroup members;
        private final long maxQueued;

        Room(ChannelGroup members, long maxQueued) {
            this.members = members;
            this.maxQueued = maxQueued;
        }

        private static String nick(Channel ch) {
            return "guest-" + ch.id().asShortText();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof WebSocketHandshakeComplete) {
                Channel ch = ctx.channel();
                ch.attr(BACKLOG).set(new AtomicLong());
                // Members join on several loops at once: joining, counting and announcing under one
                // lock gives each join its own count, and every member sees the counts in order.
                synchronized (this) {
                    members.add(ch);
                    broadcast("* " + nick(ch) + " joined; " + members.size() + " here");
                }
                ch.closeFuture().addListener(f -> {
                    synchronized (this) {
                        broadcast("* " + nick(ch) + " left");
                    }
                });
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof TextWebSocketFrame text) {
                String line = nick(ctx.channel()) + ": " + text.text();
                text.release();
                broadcast(line);
            } else {
                ReferenceCountUtil.release(msg); // binary: not a chat message
            }
        }

        /** Encodes {@code line} once and sends it to every member, each over a duplicate. */
        private void broadcast(String line) {
            ByteBuf shared = Unpooled.wrappedBuffer(line.getBytes(StandardCharsets.UTF_8));
            try {
                for (Channel member : members) {
                    send(member, shared);
                }
            } finally {
                shared.release();
            }
        }

        private void send(Channel member, ByteBuf shared) {
            AtomicLong backlog = member.attr(BACKLOG).get();
            int size = shared.readableBytes();
            if (backlog.addAndGet(size) > maxQueued) {
                backlog.addAndGet(-size);
                LOG.info("{} is disconnected: more than {} bytes of messages waited for it", nick(member), maxQueued);
                member.writeAndFlush(new CloseWebSocketFrame(CloseWebSocketFrame.POLICY_VIOLATION, "too slow"))
                        .addListener(f -> member.close());
                return;
            }
            member.writeAndFlush(new TextWebSocketFrame(shared.retainedDuplicate()))
                    .addListener(f -> backlog.addAndGet(-size));
        }
    }
}
