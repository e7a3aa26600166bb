package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.handler.codec.http2.Http2DataFrame;
import io.rill.handler.codec.http2.Http2FrameCodec;
import io.rill.handler.codec.http2.Http2Headers;
import io.rill.handler.codec.http2.Http2HeadersFrame;
import io.rill.handler.codec.http2.Http2WindowUpdateFrame;
import io.rill.util.ResourceLeakDetector;
import io.rill.util.concurrent.DefaultThreadFactory;

/**
 * "No garbage on the hot path" (docs/architecture.md) for HTTP/2 (issue 14: at most 300 bytes
 * per request on the server under
 * {@code h2load -c 64 -m 100}): after warm-up, a GET answered with a small body allocates a bounded
 * number of bytes on the server's event loop, measured with the JVM's per-thread allocation
 * counter. The client sends its requests in batches of concurrent streams, as h2load does, through
 * Rill's own client codec (on another loop, so its garbage is not counted). Prints the figure; the
 * bound is a regression guard.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class Http2SteadyStateAllocationTest {

    private static final int STREAMS_PER_BATCH = 50;
    private static final int WARM_UP_BATCHES = 2_000;
    private static final int MEASURED_BATCHES = 1_000;
    /**
     * A bit above the measured 290 B, for the handler below, which builds its answer per request as
     * an application would: the request (its frame, field section and the section's array, sized
     * like the last block) about 130 B; the answer the handler makes (two frames, a field section
     * of three fields, the body's buffer) about 150 B; the rest (read buffers, the flush) is shared
     * by the 50 requests of a batch. Streams, frame payloads and the flush's promises cost nothing
     * per request: pooled, read in place, not listed for the void promise.
     */
    private static final long MAX_BYTES_PER_REQUEST = 350;

    private MultiThreadIoEventLoopGroup serverGroup;
    private MultiThreadIoEventLoopGroup clientGroup;
    private ResourceLeakDetector.Level savedLevel;

    @BeforeEach
    void start() {
        // Leak tracking allocates a record per tracked buffer: what it costs is not what is measured.
        savedLevel = ResourceLeakDetector.level();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        serverGroup = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("h2-alloc-server", true),
                NioIoHandler.newFactory());
        clientGroup = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("h2-alloc-client", true),
                NioIoHandler.newFactory());
    }

    @AfterEach
    void stop() throws InterruptedException {
        ResourceLeakDetector.setLevel(savedLevel);
        assertTrue(serverGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        assertTrue(clientGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
    }

    @Test
    void aGetWithASmallAnswerAllocatesLittleOnTheServerLoop() throws Exception {
        Channel server = new ServerBootstrap().group(serverGroup).channelFactory(NioServerSocketChannel::new)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(Http2FrameCodec.forServer().build(), new Hello());
                    }
                }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
        Batches batches = new Batches();
        Channel client = new Bootstrap().group(clientGroup).channelFactory(NioSocketChannel::new)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(Http2FrameCodec.forClient().build(), batches);
                    }
                }).connect(server.localAddress()).sync().getNow();
        try {
            batches.run(client, WARM_UP_BATCHES).get(60, TimeUnit.SECONDS);
            long serverThread = LoopAllocation.threadId(serverGroup.next());
            long before = LoopAllocation.allocatedBytes(serverThread);
            batches.run(client, MEASURED_BATCHES).get(60, TimeUnit.SECONDS);
            double perRequest = (double) (LoopAllocation.allocatedBytes(serverThread) - before)
                    / ((long) MEASURED_BATCHES * STREAMS_PER_BATCH);
            System.out.printf("steady-state allocation per HTTP/2 GET: server loop %.1f B%n", perRequest);
            assertTrue(perRequest < MAX_BYTES_PER_REQUEST, "server loop allocated " + perRequest + " B per request");
        } finally {
            client.close().awaitUninterruptibly(10, TimeUnit.SECONDS);
            server.close().awaitUninterruptibly(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Answers every request as an application would: response fields built per request, a body
     * in a buffer from the channel's allocator, writes whose outcome nobody watches passed the void
     * promise, one flush per read.
     */
    static final class Hello implements ChannelHandler {
        private static final byte[] BODY = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame request && request.endStream()) {
                int id = request.streamId();
                ctx.write(new Http2HeadersFrame(id, new Http2Headers().status("200").add("content-type", "text/plain")
                        .add("content-length", "13"), false), ctx.voidPromise());
                ctx.write(new Http2DataFrame(id, ctx.alloc().buffer(BODY.length).writeBytes(BODY), true),
                        ctx.voidPromise());
            } else {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    /**
     * The client: {@link #STREAMS_PER_BATCH} GETs at once, the next batch when every answer is in;
     * the content it reads is handed back as window credit, so the server never waits for it.
     */
    static final class Batches implements ChannelHandler {
        private static final Http2Headers REQUEST = new Http2Headers().method("GET").scheme("http")
                .authority("localhost").path("/").add("user-agent", "rill-test");

        private ChannelHandlerContext ctx;
        private int batchesLeft;
        private int answersLeft;
        private CompletableFuture<Void> done;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        /** Runs {@code count} batches; completes when the last answer is in. */
        CompletableFuture<Void> run(Channel channel, int count) {
            CompletableFuture<Void> result = new CompletableFuture<>();
            channel.eventLoop().execute(() -> {
                done = result;
                batchesLeft = count;
                sendBatch();
            });
            return result;
        }

        private void sendBatch() {
            answersLeft = STREAMS_PER_BATCH;
            for (int i = 0; i < STREAMS_PER_BATCH; i++) {
                ctx.write(new Http2HeadersFrame(0, REQUEST, true), ctx.voidPromise());
            }
            ctx.flush();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2DataFrame data) {
                int credit = data.flowControlled();
                boolean last = data.endStream();
                data.release();
                ctx.write(new Http2WindowUpdateFrame(data.streamId(), credit), ctx.voidPromise());
                if (last && --answersLeft == 0) {
                    if (--batchesLeft == 0) {
                        done.complete(null);
                    } else {
                        sendBatch();
                    }
                }
            } else {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            done.completeExceptionally(cause);
            ctx.close();
        }
    }
}
