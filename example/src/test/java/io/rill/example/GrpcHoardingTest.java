package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.bootstrap.Bootstrap;
import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.epoll.Epoll;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.handler.codec.http2.Http2DataFrame;
import io.rill.handler.codec.http2.Http2FrameCodec;
import io.rill.handler.codec.http2.Http2Headers;
import io.rill.handler.codec.http2.Http2HeadersFrame;
import io.rill.handler.codec.http2.Http2WindowUpdateFrame;

/**
 * docs/security-cases.md, case H2-23, against the real {@code grpc-echo} in a JVM of its own: two
 * connections open 100 unary calls each and send every call most of a 4 MiB message, never the
 * last byte, as fast as the server's windows allow. The server used to copy each into its call
 * and return the credit at once (401 MB held, +503 MB of RSS); now a connection holds at most its
 * budget of two messages, and a client that reads its answers is served meanwhile.
 */
class GrpcHoardingTest {

    /** A message announced at the limit, of which all but the last byte is sent: shared by every call, never copied. */
    private static final ByteBuf UNFINISHED = Unpooled.constantBuffer(unfinishedMessage());

    private static byte[] unfinishedMessage() {
        byte[] bytes = new byte[5 + GrpcCall.MAX_MESSAGE - 1];
        bytes[1] = (byte) (GrpcCall.MAX_MESSAGE >>> 24);
        bytes[2] = (byte) (GrpcCall.MAX_MESSAGE >>> 16);
        bytes[3] = (byte) (GrpcCall.MAX_MESSAGE >>> 8);
        bytes[4] = (byte) GrpcCall.MAX_MESSAGE;
        return bytes;
    }

    private static Http2Headers unary() {
        return new Http2Headers().method("POST").scheme("http").authority("localhost").path(GrpcCall.UNARY)
                .add("content-type", "application/grpc").add("te", "trailers");
    }

    /** Unary calls one at a time on one connection, reading the answers; each completes with its grpc-status. */
    static final class UnaryClient implements ChannelHandler {
        private volatile CompletableFuture<String> status;

        String call(Channel ch) throws Exception {
            CompletableFuture<String> done = new CompletableFuture<>();
            status = done;
            ch.eventLoop().execute(() -> {
                try {
                    int id = ch.pipeline().get(Http2FrameCodec.class).reserveStreamId();
                    ch.write(new Http2HeadersFrame(id, unary(), false));
                    ch.writeAndFlush(new Http2DataFrame(id, Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 0, 2, 'h', 'i'}), true));
                } catch (Exception e) {
                    done.completeExceptionally(e);
                }
            });
            return done.get(10, TimeUnit.SECONDS);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame h && h.endStream()) {
                status.complete(String.valueOf(h.headers().get("grpc-status")));
            } else if (msg instanceof Http2DataFrame d) {
                ctx.writeAndFlush(new Http2WindowUpdateFrame(d.streamId(), d.flowControlled()));
            }
            ReferenceCountUtil.release(msg);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void h2_23_hoardedMessagesCostAtMostTheConnectionsBudgetAndALegitimateClientIsServed(String transport) throws Exception {
        assumeTrue(transport.equals("nio") || Epoll.isAvailable(), "epoll is not available here");
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (ForkedExample server = new ForkedExample("grpc-echo", "--port", "0", "--transport", transport)) {
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
            UnaryClient legit = new UnaryClient();
            Channel good = connect(group, address, legit);
            for (int i = 0; i < 20; i++) {
                assertEquals("0", legit.call(good)); // warms the server's paths up before the baseline
            }
            long baseline = server.statusKib("VmRSS");

            List<Channel> attackers = new ArrayList<>();
            for (int c = 0; c < 2; c++) {
                Channel attacker = connect(group, address, new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ReferenceCountUtil.release(msg); // refusals and resets: the attacker does not care
                    }
                });
                attacker.eventLoop().submit(() -> {
                    Http2FrameCodec codec = attacker.pipeline().get(Http2FrameCodec.class);
                    for (int s = 0; s < 100; s++) {
                        int id = codec.reserveStreamId();
                        attacker.write(new Http2HeadersFrame(id, unary(), false));
                        attacker.write(new Http2DataFrame(id, UNFINISHED, false)); // sent as the server's windows open
                    }
                    attacker.flush();
                    return null;
                }).get(10, TimeUnit.SECONDS);
                attackers.add(attacker);
            }

            long worstMillis = 0;
            for (int i = 0; i < 100; i++) {
                long start = System.nanoTime();
                assertEquals("0", legit.call(good), "call " + i + " during the attack");
                worstMillis = Math.max(worstMillis, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            }
            long growth = server.peakGrowthMib(baseline);
            assertTrue(growth < 64, "the server's peak RSS grew by " + growth + " MiB (the target: under 64)");
            assertTrue(worstMillis < 1000, "the legitimate client waited " + worstMillis + " ms");
            assertTrue(!server.stderr().contains("LEAK"), server.stderr());
            // The clients' channels end with the server's process: a graceful close would wait for their streams.
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    private static Channel connect(MultiThreadIoEventLoopGroup group, InetSocketAddress address, ChannelHandler handler)
            throws Exception {
        return new Bootstrap().group(group).channel(NioSocketChannel.class).handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(Http2FrameCodec.forClient().build(), handler);
            }
        }).connect(address).sync().getNow();
    }
}
