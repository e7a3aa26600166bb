package io.rill.example;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
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
import io.rill.util.concurrent.DefaultPromise;
import io.rill.util.concurrent.Promise;

/**
 * Sends {@code --count N} messages of {@code --size P} bytes to an echo server over
 * {@code --connections C} connections (default 1), one in flight per connection at a time
 * (ping-pong), checks that each comes back byte for byte, and prints the round-trip rate and the
 * process CPU time per round trip (client side: run the server in its own process), so
 * transports can be compared under load: {@code --transport epoll} vs {@code --transport nio}.
 */
final class EchoClient implements Example {

    @Override
    public String name() {
        return "echo-client";
    }

    @Override
    public String description() {
        return "ping-pongs messages with echo-server and verifies them (try: --count 10000 --size 256)";
    }

    private static final ExampleOption COUNT = ExampleOption.number("count", "N", 10_000, 1, Integer.MAX_VALUE,
            "round trips in all");
    private static final ExampleOption SIZE = ExampleOption.number("size", "BYTES", 256, 1, 64 * 1024 * 1024,
            "bytes per message");
    private static final ExampleOption CONNECTIONS = ExampleOption.number("connections", "C", 1, 1, 10_000,
            "connections sharing the round trips (at most --count)");
    private static final ExampleOption TLS = ExampleOption.flag("tls",
            "speak TLS to echo-server --tls: the JDK's trust store and the host name, unless --trust or --insecure");

    @Override
    public List<ExampleOption> options() {
        return List.of(COUNT, SIZE, CONNECTIONS, TLS, ClientTls.TRUST, ClientTls.INSECURE);
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        SslContext tls = options.flag(TLS) ? ClientTls.context(options) : null;
        if (tls == null && (options.text(ClientTls.TRUST) != null || options.flag(ClientTls.INSECURE))) {
            throw new ExampleOptions.UsageException("--trust and --insecure need --tls");
        }
        int count = options.intValue(COUNT);
        int size = options.intValue(SIZE);
        int connections = options.intValue(CONNECTIONS);
        if (connections > count) {
            throw new ExampleOptions.UsageException("--connections " + connections + " (expected: at most --count, "
                    + count + ")");
        }
        byte[] payload = new byte[size];
        new Random(size).nextBytes(payload);
        MultiThreadIoEventLoopGroup group = Transports.newGroup(options, name());
        try {
            List<Promise<Long>> done = new ArrayList<>();
            List<Channel> channels = new ArrayList<>();
            long cpuBefore = processCpuNanos();
            long start = System.nanoTime();
            for (int i = 0; i < connections; i++) {
                // The first connections take the remainder, so the counts add up to --count.
                int share = count / connections + (i < count % connections ? 1 : 0);
                Promise<Long> finished = new DefaultPromise<>(group.next());
                done.add(finished);
                Channel ch = new Bootstrap().group(group).channelFactory(Transports.clientChannel(options))
                        .handler(tls != null ? withTls(tls, options, new PingPong(payload, share, finished))
                                : new PingPong(payload, share, finished))
                        .connect(options.host, options.port).sync().getNow();
                channels.add(ch);
                if (tls != null) {
                    ClientTls.awaitHandshake(ch, options.host + ":" + options.port, 30);
                }
            }
            for (Promise<Long> finished : done) {
                finished.sync();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpuMicros = (processCpuNanos() - cpuBefore) / 1e3;
            for (Channel ch : channels) {
                ch.close().sync();
            }
            System.out.printf("%d round-trips of %d bytes over %d connection(s) in %.3f s: %.0f round-trips/s,"
                    + " %.1f us CPU per round trip, all verified%n",
                    count, size, connections, seconds, count / seconds, cpuMicros / count);
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        }
    }

    /** CPU time of this process (all threads), or 0 where the JVM cannot tell. */
    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? Math.max(0, os.getProcessCpuTime()) : 0;
    }

    /**
     * TLS in front of {@code next}, trusting what {@link ClientTls} was told to: the JDK's trust
     * store by default, the self-signed echo-server's PEM with {@code --trust}, anything with
     * {@code --insecure} (encrypted but not authenticated).
     */
    private static ChannelHandler withTls(SslContext context, ExampleOptions options, ChannelHandler next) {
        if (options.flag(ClientTls.INSECURE)) {
            System.out.println("--insecure: the server's certificate is NOT verified");
        }
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(context.newHandler(ch.alloc(), options.host, options.port));
                TlsFailureLog.quietBehindTls(ch);
                ch.pipeline().addLast(next);
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
