package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpVersion;
import io.rill.util.ResourceLeakDetector;
import io.rill.util.concurrent.DefaultThreadFactory;

/**
 * ARCHITECTURE rule 1 for HTTP: after warm-up, a pipelined plaintext request (the TechEmpower
 * shape: 16 requests per write, keep-alive) allocates a bounded number of bytes on the server's
 * event loop, measured with the JVM's per-thread allocation counter. Prints the figure; the bound
 * is a regression guard.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HttpSteadyStateAllocationTest {

    private static final String REQUEST = "GET /plaintext HTTP/1.1\r\nHost: localhost\r\nAccept: text/plain\r\n\r\n";
    private static final int PIPELINE = 16;
    private static final int RESPONSE_BYTES = ("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 13\r\n"
            + "server: Rill\r\ndate: Mon, 23 Nov 2026 05:00:00 GMT\r\n\r\nHello, World!").length();
    private static final int WARM_UP_BATCHES = 4_000;
    private static final int MEASURED_BATCHES = 2_000;
    /**
     * The goal. Measured 88 B: the decoded request, its header set and the set's array of
     * exactly two fields. What the codec adds per request (names, repeated values, the target,
     * encode buffers, output lists) is zero, reused or gathered per flush, and the response is one
     * object shared by every request (read-only headers, a constant body), as http-hello does.
     */
    private static final long MAX_BYTES_PER_REQUEST = 100;

    private MultiThreadIoEventLoopGroup serverGroup;
    private MultiThreadIoEventLoopGroup clientGroup;
    private ResourceLeakDetector.Level savedLevel;

    @BeforeEach
    void start() {
        savedLevel = ResourceLeakDetector.level();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        serverGroup = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("http-alloc-server", true),
                NioIoHandler.newFactory());
        clientGroup = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("http-alloc-client", true),
                NioIoHandler.newFactory());
    }

    @AfterEach
    void stop() throws InterruptedException {
        ResourceLeakDetector.setLevel(savedLevel);
        assertTrue(serverGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        assertTrue(clientGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
    }

    @Test
    void aPipelinedPlaintextRequestAllocatesLittleOnTheServerLoop() throws Exception {
        Hello hello = new Hello();
        Channel server = new ServerBootstrap().group(serverGroup).channelFactory(NioServerSocketChannel::new)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), hello);
                    }
                }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
        // 16 pipelined requests per write; the reply is 16 responses of known size.
        LoopAllocation.RepeatedExchange batches = new LoopAllocation.RepeatedExchange(
                REQUEST.repeat(PIPELINE).getBytes(StandardCharsets.US_ASCII), (long) RESPONSE_BYTES * PIPELINE);
        Channel client = new Bootstrap().group(clientGroup).channelFactory(NioSocketChannel::new)
                .handler(batches).connect(server.localAddress()).sync().getNow();
        try {
            batches.run(client, WARM_UP_BATCHES).get(60, TimeUnit.SECONDS);
            long serverThread = LoopAllocation.threadId(serverGroup.next());
            long before = LoopAllocation.allocatedBytes(serverThread);
            batches.run(client, MEASURED_BATCHES).get(60, TimeUnit.SECONDS);
            double perRequest = (double) (LoopAllocation.allocatedBytes(serverThread) - before) / (MEASURED_BATCHES * PIPELINE);
            System.out.printf("steady-state allocation per pipelined plaintext request: server loop %.1f B%n", perRequest);
            assertTrue(perRequest < MAX_BYTES_PER_REQUEST, "server loop allocated " + perRequest + " B per request");
        } finally {
            client.close().awaitUninterruptibly(10, TimeUnit.SECONDS);
            server.close().awaitUninterruptibly(10, TimeUnit.SECONDS);
        }
    }

    /**
     * http-hello's plaintext answer: four fields, a 13-byte body, one shared response written per
     * request, flushed per read.
     */
    @ChannelHandler.Sharable
    static final class Hello implements ChannelHandler {
        private static final FullHttpResponse RESPONSE = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.OK, Unpooled.constantBuffer("Hello, World!".getBytes(StandardCharsets.US_ASCII)),
                new HttpHeaders().add(HttpHeaderNames.CONTENT_TYPE, "text/plain").add(HttpHeaderNames.CONTENT_LENGTH, "13")
                        .add(HttpHeaderNames.SERVER, "Rill").add(HttpHeaderNames.DATE, "Mon, 23 Nov 2026 05:00:00 GMT")
                        .toReadOnly(),
                HttpHeaders.EMPTY);

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest) {
                ctx.write(RESPONSE, ctx.voidPromise());
            }
            io.rill.buffer.ReferenceCountUtil.release(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }
}
