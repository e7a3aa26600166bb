package io.rill.handler.codec.http2.websocketx;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.local.LocalAddress;
import io.rill.channel.local.LocalChannel;
import io.rill.channel.local.LocalIoHandler;
import io.rill.channel.local.LocalServerChannel;
import io.rill.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.rill.handler.codec.http.websocketx.TextWebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketCloseReceived;
import io.rill.handler.codec.http.websocketx.WebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketHandshakeComplete;
import io.rill.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.rill.handler.codec.http2.Http2FrameCodec;
import io.rill.handler.codec.http2.Http2MultiplexHandler;
import io.rill.handler.codec.http2.Http2ResetFrame;
import io.rill.handler.codec.http2.Http2StreamChannel;
import io.rill.util.concurrent.DefaultThreadFactory;

/**
 * An HTTP/2 server that serves WebSocket over its streams and an HTTP/2 client connection to it,
 * over the in-VM transport; what the server's WebSocket streams see is recorded as text.
 */
final class Http2WebSocketPeers implements AutoCloseable {

    final MultiThreadIoEventLoopGroup group =
            new MultiThreadIoEventLoopGroup(2, new DefaultThreadFactory("h2-ws-test", true), LocalIoHandler.newFactory());
    /** What the server's stream pipelines saw, in order: "OPEN /path", "TEXT hi", "RESET CANCEL", "CLOSED". */
    final BlockingQueue<String> serverEvents = new LinkedBlockingQueue<>();
    /** The server's WebSocket streams, as they complete their handshakes. */
    final BlockingQueue<Http2StreamChannel> serverStreams = new LinkedBlockingQueue<>();
    private final List<Channel> channels = new ArrayList<>();

    /**
     * @param name the local address
     * @param ws the server's WebSocket configuration
     * @param connectProtocol whether the server advertises SETTINGS_ENABLE_CONNECT_PROTOCOL
     * @param echo whether the server's application echoes data frames
     */
    Channel start(String name, WebSocketServerProtocolHandler.Builder ws, boolean connectProtocol, boolean echo)
            throws Exception {
        LocalAddress address = new LocalAddress(name);
        Channel server = new ServerBootstrap().group(group).channel(LocalServerChannel.class)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(Http2FrameCodec.forServer().enableConnectProtocol(connectProtocol).build(),
                                new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
                                    @Override
                                    protected void initChannel(Http2StreamChannel stream) {
                                        stream.pipeline().addLast(Http2WebSocketServerHandler.of(ws), new ServerApplication(echo));
                                    }
                                }));
                    }
                }).bind(address).get(5, TimeUnit.SECONDS);
        channels.add(server);
        Channel client = new Bootstrap().group(group).channel(LocalChannel.class)
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(Http2FrameCodec.forClient().build(), new Http2MultiplexHandler(null));
                    }
                }).connect(address).get(5, TimeUnit.SECONDS);
        channels.add(client);
        return client;
    }

    String nextServerEvent() throws InterruptedException {
        String event = serverEvents.poll(10, TimeUnit.SECONDS);
        if (event == null) {
            throw new AssertionError("no server event within 10 s");
        }
        return event;
    }

    @Override
    public void close() throws Exception {
        for (Channel ch : channels) {
            // from the first context: the transport goes at once, without the codec's graceful GOAWAY
            // that would wait for open streams, so every stream closes and frees what it holds
            ch.pipeline().firstContext().close().await(5, TimeUnit.SECONDS);
        }
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
    }

    /** Describes a frame or event as a line of text. */
    static String describe(Object msg) {
        if (msg instanceof TextWebSocketFrame text) {
            return "TEXT " + text.text();
        } else if (msg instanceof BinaryWebSocketFrame binary) {
            return "BINARY " + binary.content().readableBytes();
        } else if (msg instanceof WebSocketCloseReceived close) {
            return "CLOSE " + close.status();
        } else if (msg instanceof Http2ResetFrame reset) {
            return "RESET " + reset.error();
        } else if (msg instanceof WebSocketHandshakeComplete done) {
            return "OPEN " + done.uri() + (done.subprotocol() == null ? "" : " " + done.subprotocol());
        }
        return msg.getClass().getSimpleName();
    }

    /** The server's application: records, and echoes data frames when asked. */
    private final class ServerApplication implements ChannelHandler {
        private final boolean echo;

        ServerApplication(boolean echo) {
            this.echo = echo;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            serverEvents.add(describe(msg));
            if (echo && msg instanceof WebSocketFrame) {
                ctx.writeAndFlush(msg);
            } else {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            serverEvents.add(describe(evt));
            if (evt instanceof WebSocketHandshakeComplete) {
                serverStreams.add((Http2StreamChannel) ctx.channel());
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            serverEvents.add("CLOSED");
        }
    }
}
