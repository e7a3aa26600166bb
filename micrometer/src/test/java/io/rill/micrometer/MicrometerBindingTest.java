package io.rill.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.ByteBuf;
import io.rill.buffer.PooledByteBufAllocator;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.channel.nio.NioSocketChannel;
import io.rill.util.concurrent.DefaultThreadFactory;
import io.rill.util.concurrent.Promise;

/** The meters show Rill's figures, read from a {@link SimpleMeterRegistry} after real traffic. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MicrometerBindingTest {

    private MultiThreadIoEventLoopGroup group;
    private final MeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void start() {
        group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("meters-test", true), NioIoHandler.newFactory());
    }

    @AfterEach
    void stop() throws InterruptedException {
        assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
    }

    @Test
    void eventLoopAndChannelMetersFollowTheSockets() throws Exception {
        new EventLoopMeters(group, Tag.of("group", "test")).bindTo(registry);
        String loop = group.metrics().get(0).name();

        Promise<Channel> accepted = group.next().newPromise();
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        accepted.trySuccess(ch);
                    }
                }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
        Channel client = new Bootstrap().group(group).channel(NioSocketChannel.class).handler(new ChannelHandler() { })
                .connect(server.localAddress()).sync().getNow();
        Channel child = accepted.get(10, TimeUnit.SECONDS);
        group.next().submit(() -> { }).sync(); // the child registers in a task after initChannel

        assertEquals(3.0, registry.get("rill.channels.open").tags("group", "test", "loop", loop).gauge().value());
        assertEquals(1.0, registry.get("rill.channels.accepted").tag("loop", loop).functionCounter().count());
        assertTrue(registry.get("rill.eventloop.io.events").tag("loop", loop).functionCounter().count() >= 1);
        double tasks = registry.get("rill.eventloop.tasks.time").tag("loop", loop).functionCounter().count();
        assertTrue(tasks > 0);
        assertTrue(registry.get("rill.eventloop.busy.time").tag("loop", loop).functionCounter().count() >= tasks);
        assertEquals(0.0, registry.get("rill.eventloop.tasks.pending").tag("loop", loop).gauge().value());

        client.close().sync();
        assertTrue(child.closeFuture().await(10, TimeUnit.SECONDS));
        server.close().sync();
        assertEquals(0.0, registry.get("rill.channels.open").tag("loop", loop).gauge().value());
        assertEquals(3.0, registry.get("rill.channels.closed").tag("loop", loop).functionCounter().count());
        assertEquals(0.0, registry.get("rill.channels.writability.changes").tag("loop", loop).functionCounter().count());
    }

    @Test
    void allocatorMetersShowEachArena() {
        PooledByteBufAllocator alloc = new PooledByteBufAllocator(false, 2, 1, 8192, 4, 0, 0);
        new AllocatorMeters(alloc).bindTo(registry);
        assertEquals(3, registry.find("rill.allocator.arena.used").gauges().size()); // 2 heap + 1 direct
        ByteBuf buf = alloc.heapBuffer(1000);
        try {
            double used = registry.find("rill.allocator.arena.used").tag("memory", "heap").gauges().stream()
                    .mapToDouble(g -> g.value()).sum();
            assertEquals(8192 << 4, used); // one chunk
            double chunks = registry.find("rill.allocator.arena.chunks").tag("memory", "heap").gauges().stream()
                    .mapToDouble(g -> g.value()).sum();
            assertEquals(1.0, chunks);
            double pinned = registry.find("rill.allocator.arena.pinned").tag("memory", "heap").gauges().stream()
                    .mapToDouble(g -> g.value()).sum();
            assertTrue(pinned >= 1000, "pinned " + pinned);
            assertEquals(0.0, registry.get("rill.allocator.arena.chunks").tags("memory", "direct", "arena", "0")
                    .gauge().value());
        } finally {
            buf.release();
        }
        assertTrue(registry.get("rill.allocator.cache.misses").functionCounter().count() >= 1);
    }
}
