package io.rill.handler.codec.memcache.text;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.bootstrap.ServerBootstrap;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;

/**
 * Rill's text memcache server codec driven by Python's pymemcache, a real client: a tiny in-memory
 * server in the test answers set, add, get, gets, cas, incr, touch, delete and version, and the
 * client's script prints what it got. Skips when pymemcache is not installed ({@code .ci/run}
 * installs it).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TextMemcacheServerInteropTest {

    private static final String CLIENT = String.join("\n",
            "import sys",
            "from pymemcache.client.base import Client",
            "c = Client(('127.0.0.1', int(sys.argv[1])), connect_timeout=5, timeout=5)",
            "out = []",
            "out.append(c.set('greeting', b'hello\\r\\nworld', noreply=False))",
            "out.append(c.add('greeting', b'x', noreply=False))",
            "out.append(c.get('greeting'))",
            "out.append(c.get('absent'))",
            "value, cas = c.gets('greeting')",
            "out.append(c.cas('greeting', b'v2', cas, noreply=False))",
            "out.append(c.cas('greeting', b'v3', cas, noreply=False))",
            "c.set('n', b'41')",
            "out.append(c.incr('n', 1))",
            "out.append(c.touch('n', 60, noreply=False))",
            "out.append(sorted(c.get_many(['greeting', 'n', 'absent']).items()))",
            "out.append(c.delete('n', noreply=False))",
            "out.append(c.delete('n', noreply=False))",
            "out.append(c.version())",
            "print(out)");

    private record Item(long flags, byte[] value, long cas) {
    }

    /** The smallest server: a map, with cas uniques from a counter; shared by the connections. */
    @ChannelHandler.Sharable
    private static final class Store implements ChannelHandler {
        final Map<String, Item> items = new ConcurrentHashMap<>();
        final AtomicLong casCounter = new AtomicLong();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            TextMemcacheRequest r = (TextMemcacheRequest) msg;
            try {
                TextMemcacheResponse reply = serve(ctx, r);
                if (reply != null && !r.isNoreply()) {
                    ctx.write(reply);
                } else if (reply != null) {
                    reply.release();
                }
            } finally {
                r.release();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        private TextMemcacheResponse serve(ChannelHandlerContext ctx, TextMemcacheRequest r) {
            String key = r.key();
            Item old = key == null ? null : items.get(key);
            switch (r.command()) {
                case SET, ADD, CAS -> {
                    if (r.command() == TextMemcacheCommand.ADD && old != null) {
                        return TextMemcacheResponse.NOT_STORED;
                    }
                    if (r.command() == TextMemcacheCommand.CAS && (old == null || old.cas() != r.casUnique())) {
                        return old == null ? TextMemcacheResponse.NOT_FOUND : TextMemcacheResponse.EXISTS;
                    }
                    items.put(key, new Item(r.flags(), ByteBufUtil.getBytes(r.content()), casCounter.incrementAndGet()));
                    return TextMemcacheResponse.STORED;
                }
                case GET, GETS -> {
                    for (String k : r.keys()) {
                        Item item = items.get(k);
                        if (item != null) {
                            ctx.write(r.command() == TextMemcacheCommand.GETS
                                    ? TextMemcacheResponse.value(k, item.flags(), item.cas(), Unpooled.wrappedBuffer(item.value()))
                                    : TextMemcacheResponse.value(k, item.flags(), Unpooled.wrappedBuffer(item.value())));
                        }
                    }
                    return TextMemcacheResponse.END;
                }
                case INCR -> {
                    if (old == null) {
                        return TextMemcacheResponse.NOT_FOUND;
                    }
                    long next = Long.parseUnsignedLong(new String(old.value(), UTF_8)) + r.delta();
                    items.put(key, new Item(old.flags(), Long.toUnsignedString(next).getBytes(UTF_8), casCounter.incrementAndGet()));
                    return TextMemcacheResponse.number(next);
                }
                case TOUCH -> {
                    return old == null ? TextMemcacheResponse.NOT_FOUND : TextMemcacheResponse.TOUCHED;
                }
                case DELETE -> {
                    return items.remove(key) == null ? TextMemcacheResponse.NOT_FOUND : TextMemcacheResponse.DELETED;
                }
                case VERSION -> {
                    return TextMemcacheResponse.withMessage(TextMemcacheResponse.Type.VERSION, "1.6.0-rill");
                }
                default -> {
                    return TextMemcacheResponse.ERROR;
                }
            }
        }
    }

    @Test
    void pymemcacheDrivesATextServer() throws Exception {
        Process probe = new ProcessBuilder("python3", "-c", "import pymemcache").start();
        boolean present = probe.waitFor(20, TimeUnit.SECONDS) && probe.exitValue() == 0;
        assertTrue(present || !"true".equals(System.getenv("CI")), "CI must install pymemcache (.ci/run)");
        assumeTrue(present, "pymemcache is not installed");
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            Store store = new Store();
            Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new TextMemcacheRequestDecoder(), TextMemcacheResponseEncoder.INSTANCE, store);
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).get(10, TimeUnit.SECONDS);
            int port = ((InetSocketAddress) server.localAddress()).getPort();
            Process client = new ProcessBuilder("python3", "-c", CLIENT, String.valueOf(port)).redirectErrorStream(true).start();
            String out = new String(client.getInputStream().readAllBytes(), UTF_8).trim();
            assertEquals(0, client.waitFor(), out);
            assertEquals("[True, False, b'hello\\r\\nworld', None, True, False, 42, True, [('greeting', b'v2'), ('n', b'42')],"
                    + " True, False, b'1.6.0-rill']", out);
            server.close().get(10, TimeUnit.SECONDS);
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }
}
