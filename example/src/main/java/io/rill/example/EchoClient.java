package io.rill.example;

import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.rill.bootstrap.Bootstrap;
import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.handler.ssl.SslContext;
import io.rill.handler.ssl.SslContextBuilder;
import io.rill.handler.ssl.util.InsecureTrustManagerFactory;
import io.rill.util.concurrent.DefaultPromise;
import io.rill.util.concurrent.Promise;

/**
 * Sends {@code --count N} messages of {@code --size P} bytes to an echo server, one in flight at a
 * time (ping-pong), checks that each comes back byte for byte, and prints the round-trip rate.
 */
final class EchoClient implements Example {

    @Override
    public String name() {
        return "echo-client";
    }

    @Override
    public String description() {
        return "ping-pongs messages with echo-server and verifies them (--count N, --size P;"
                + " --tls for echo-server --tls: trusts ANY certificate, for trying the example only)";
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        options.rejectUnknown("count", "size", "tls");
        boolean tls = Boolean.parseBoolean(options.get("tls", "false"));
        int count = options.getInt("count", 10_000, 1, Integer.MAX_VALUE);
        int size = options.getInt("size", 256, 1, 64 * 1024 * 1024);
        byte[] payload = new byte[size];
        new Random(size).nextBytes(payload);
        MultiThreadIoEventLoopGroup group = Transports.newGroup(options, name());
        try {
            Promise<Long> done = new DefaultPromise<>(group.next());
            Channel ch = new Bootstrap().group(group).channelFactory(Transports.clientChannel(options))
                    .handler(tls ? insecureTls(options, new PingPong(payload, count, done))
                            : new PingPong(payload, count, done))
                    .connect(options.host, options.port).sync().getNow();
            long nanos = done.sync().getNow();
            ch.close().sync();
            double seconds = nanos / 1e9;
            System.out.printf("%d round-trips of %d bytes in %.3f s: %.0f round-trips/s, all verified%n",
                    count, size, seconds, count / seconds);
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        }
    }

    /**
     * TLS that accepts any server certificate: encrypted but not authenticated, which is all a
     * self-signed example server allows without copying its certificate around.
     */
    private static ChannelHandler insecureTls(ExampleOptions options, ChannelHandler next) throws Exception {
        System.out.println("--tls: the server's certificate is NOT verified (InsecureTrustManagerFactory)");
        SslContext context = SslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE).build();
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(context.newHandler(ch.alloc(), options.host, options.port), next);
            }
        };
    }

    /** Sends the payload, compares the echo as it arrives, and sends again once it is complete. */
    private static final class PingPong implements ChannelHandler {
        private final byte[] payload;
        private final int count;
        private final Promise<Long> done;
        /** Bytes of the current echo verified so far. */
        private int matched;
        private int sent;
        private long start;

        PingPong(byte[] payload, int count, Promise<Long> done) {
            this.payload = payload;
            this.count = count;
            this.done = done;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            start = System.nanoTime();
            send(ctx);
            ctx.fireChannelActive();
        }

        private void send(ChannelHandlerContext ctx) {
            sent++;
            ctx.writeAndFlush(ctx.alloc().directBuffer(payload.length).writeBytes(payload));
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                while (buf.isReadable()) {
                    if (matched == payload.length) {
                        throw new IllegalStateException("the server sent more than was sent to it");
                    }
                    byte b = buf.readByte();
                    if (b != payload[matched]) {
                        throw new IllegalStateException("echo " + sent + " differs at byte " + matched + ": sent "
                                + payload[matched] + ", got " + b);
                    }
                    matched++;
                }
            } finally {
                buf.release();
            }
            if (matched == payload.length) {
                matched = 0;
                if (sent == count) {
                    done.trySuccess(System.nanoTime() - start);
                } else {
                    send(ctx);
                }
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            done.tryFailure(new IllegalStateException("the server closed the connection after " + sent + " messages"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            done.tryFailure(cause);
            ctx.close();
        }
    }
}
