package io.rill.handler.codec.http2;

import static io.rill.handler.codec.http2.PeerDriver.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.local.LocalAddress;
import io.rill.channel.local.LocalChannel;
import io.rill.channel.local.LocalIoHandler;
import io.rill.channel.local.LocalServerChannel;
import io.rill.util.concurrent.DefaultThreadFactory;

/**
 * A client and a server codec talking over an in-VM connection, each stream a child channel on
 * both sides: bodies far larger than the windows move only as fast as the streams read them.
 */
@Timeout(30)
class Http2StreamChannelLocalTest {

    /**
     * Far above what the windows and water marks of both sides hold (about 260 KB): an upload and its
     * echo must move together, which needs the client's streams to read on while they cannot write.
     */
    private static final int BODY = 600_000;

    private final MultiThreadIoEventLoopGroup group =
            new MultiThreadIoEventLoopGroup(2, new DefaultThreadFactory("h2-local-test", true), LocalIoHandler.newFactory());
    private final List<Channel> channels = new ArrayList<>();
    /** What reached the end of a connection's pipeline: nothing should, closing included. */
    private final List<Throwable> unhandled = new CopyOnWriteArrayList<>();
    /** Completed with the first stream the server sees, for tests that want it. */
    private volatile CompletableFuture<Http2StreamChannel> serverStreams = new CompletableFuture<>();

    @AfterEach
    void stop() throws Exception {
        for (Channel ch : channels) {
            ch.close().await(5, TimeUnit.SECONDS);
        }
        assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        assertTrue(unhandled.isEmpty(), () -> "exceptions reached the end of a connection's pipeline: " + unhandled);
    }

    @Test
    void manyConcurrentStreamsEchoLargeBodies() throws Exception {
        Channel connection = connect(new LocalAddress("h2-echo"), false);
        List<CompletableFuture<Long>> echoed = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            CompletableFuture<Long> done = new CompletableFuture<>();
            echoed.add(done);
            Http2StreamChannel stream = new Http2StreamChannelBootstrap(connection).handler(new BodyCounter(done))
                    .open().get(5, TimeUnit.SECONDS);
            stream.write(new Http2HeadersFrame(0, request("POST", "/echo"), false));
            for (int sent = 0; sent < BODY; sent += 10_000) {
                stream.write(new Http2DataFrame(0, Unpooled.wrappedBuffer(new byte[10_000]), sent + 10_000 >= BODY));
            }
            stream.flush();
        }
        for (CompletableFuture<Long> done : echoed) {
            assertEquals(BODY, done.get(20, TimeUnit.SECONDS));
        }
    }

    @Test
    void aServerStreamThatDoesNotReadStallsOnlyItsOwnSender() throws Exception {
        Channel connection = connect(new LocalAddress("h2-stall"), true);
        Http2StreamChannel stalled = new Http2StreamChannelBootstrap(connection).handler(new BodyCounter(new CompletableFuture<>()))
                .open().get(5, TimeUnit.SECONDS);
        stalled.write(new Http2HeadersFrame(0, request("POST", "/echo"), false));
        CompletableFuture<Boolean> unwritable = new CompletableFuture<>();
        stalled.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelWritabilityChanged(ChannelHandlerContext ctx) {
                if (!ctx.channel().isWritable()) {
                    unwritable.complete(true);
                }
            }
        });
        for (int i = 0; i < 20; i++) {
            stalled.writeAndFlush(new Http2DataFrame(0, Unpooled.wrappedBuffer(new byte[16_384]), false));
        }
        assertTrue(unwritable.get(10, TimeUnit.SECONDS), "the server's stream window ran out, then the client's buffer filled");

        CompletableFuture<Long> other = new CompletableFuture<>();
        Http2StreamChannel next = new Http2StreamChannelBootstrap(connection).handler(new BodyCounter(other))
                .open().get(5, TimeUnit.SECONDS);
        next.writeAndFlush(new Http2HeadersFrame(0, request("POST", "/echo"), false));
        next.writeAndFlush(new Http2DataFrame(0, Unpooled.wrappedBuffer(new byte[1000]), true));
        assertEquals(1000, other.get(10, TimeUnit.SECONDS), "the connection window is not held by the stalled stream");

        stalled.close().sync();
        assertFalse(stalled.isOpen());
    }

    @Test
    void aDroppedConnectionClosesTheStreamsOnBothSides() throws Exception {
        Channel connection = connect(new LocalAddress("h2-drop"), false);
        CompletableFuture<Http2StreamChannel> serverStream = new CompletableFuture<>();
        serverStreams = serverStream;
        Http2StreamChannel stream = new Http2StreamChannelBootstrap(connection).handler(new BodyCounter(new CompletableFuture<>()))
                .open().get(5, TimeUnit.SECONDS);
        stream.writeAndFlush(new Http2HeadersFrame(0, request("POST", "/echo"), false)).sync();
        Http2StreamChannel onServer = serverStream.get(5, TimeUnit.SECONDS);

        // Closing from the codec's context skips its graceful GOAWAY: the transport just goes, as a dropped socket would.
        connection.pipeline().firstContext().close();
        assertTrue(stream.closeFuture().await(5, TimeUnit.SECONDS));
        assertTrue(onServer.closeFuture().await(5, TimeUnit.SECONDS));
    }

    /** A server whose streams echo what they read (those of /echo with auto-read off, if asked), and a client connected to it. */
    private Channel connect(LocalAddress address, boolean serverAutoReadOffForFirstStream) throws Exception {
        // Connection windows larger than a stream's, so one stream that does not read cannot hold all of it.
        Http2Config serverConfig = new Http2Config(true, 100, 65_535, 1 << 20, 8192, 4096, 10_000);
        Http2Config clientConfig = new Http2Config(false, 100, 65_535, 1 << 20, 8192, 4096, 10_000);
        boolean[] first = {serverAutoReadOffForFirstStream};
        Channel server = new ServerBootstrap().group(group).channel(LocalServerChannel.class)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new Http2FrameCodec(serverConfig, new TextFieldCodec(), new TextFieldCodec()),
                                new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
                                    @Override
                                    protected void initChannel(Http2StreamChannel stream) {
                                        if (first[0]) {
                                            first[0] = false;
                                            stream.config().setAutoRead(false);
                                        }
                                        stream.pipeline().addLast(new Echo());
                                        serverStreams.complete(stream);
                                    }
                                }), new RecordUnhandled());
                    }
                }).bind(address).get(5, TimeUnit.SECONDS);
        channels.add(server);
        Channel client = new Bootstrap().group(group).channel(LocalChannel.class)
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new Http2FrameCodec(clientConfig, new TextFieldCodec(), new TextFieldCodec()),
                                new Http2MultiplexHandler(null), new RecordUnhandled());
                    }
                }).connect(address).get(5, TimeUnit.SECONDS);
        channels.add(client);
        return client;
    }

    /** Last in a connection's pipeline: keeps what would otherwise be logged as unhandled. */
    private final class RecordUnhandled implements ChannelHandler {
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            unhandled.add(cause);
        }
    }

    /** Answers a request with 200 and echoes its body, each piece as it is read. */
    private static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame h) {
                ctx.write(new Http2HeadersFrame(0, new Http2Headers().status("200"), h.endStream()));
            } else if (msg instanceof Http2DataFrame d) {
                ctx.write(new Http2DataFrame(0, d.content(), d.endStream())); // the content changes hands
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    /** Counts a response's body bytes and completes with the total at END_STREAM. */
    private static final class BodyCounter implements ChannelHandler {
        private final CompletableFuture<Long> done;
        private long bytes;

        BodyCounter(CompletableFuture<Long> done) {
            this.done = done;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2DataFrame d) {
                bytes += d.content().readableBytes();
                if (d.endStream()) {
                    done.complete(bytes);
                }
                d.release();
            } else if (msg instanceof Http2HeadersFrame h && h.endStream()) {
                done.complete(bytes);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            done.completeExceptionally(cause);
        }
    }
}
