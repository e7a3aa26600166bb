package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/**
 * Records the life-cycle events each channel sees, in order, and whether they ran on the
 * channel's own loop. Sharable, so one log can serve a server, its children and its clients.
 * Optionally closes every channel in {@code channelRegistered}, to test a close during
 * registration.
 */
@ChannelHandler.Sharable
final class LifecycleLog implements ChannelHandler {

    static final List<String> FULL = List.of("registered", "active", "inactive", "unregistered");
    static final List<String> NEVER_ACTIVE = List.of("registered", "unregistered");

    private final Map<Channel, List<String>> events = new ConcurrentHashMap<>();
    private final Map<Channel, CountDownLatch> unregistered = new ConcurrentHashMap<>();
    private final BlockingQueue<Channel> seen = new LinkedBlockingQueue<>();
    private final boolean closeWhenRegistered;

    LifecycleLog() {
        this(false);
    }

    LifecycleLog(boolean closeWhenRegistered) {
        this.closeWhenRegistered = closeWhenRegistered;
    }

    /** Waits until {@code ch} is unregistered, then checks it saw exactly {@code expected}. */
    void assertSaw(Channel ch, List<String> expected) throws InterruptedException {
        assertTrue(latch(ch).await(AbstractSocketTest.TIMEOUT_SECONDS, TimeUnit.SECONDS),
                ch + " was not unregistered; saw " + eventsOf(ch));
        assertEquals(expected, eventsOf(ch), "life cycle of " + ch);
    }

    /** The next channel, in order of registration, that this log saw; waits a bounded time. */
    Channel next() throws InterruptedException {
        return AbstractSocketTest.take(seen);
    }

    private List<String> eventsOf(Channel ch) {
        List<String> list = events.get(ch);
        synchronized (this) {
            return list == null ? List.of() : List.copyOf(list);
        }
    }

    private CountDownLatch latch(Channel ch) {
        return unregistered.computeIfAbsent(ch, c -> new CountDownLatch(1));
    }

    private void record(ChannelHandlerContext ctx, String event) {
        Channel ch = ctx.channel();
        String entry = ch.eventLoop().inEventLoop() ? event : event + " (off its loop)";
        List<String> list = events.computeIfAbsent(ch, c -> {
            seen.add(c);
            return new ArrayList<>();
        });
        synchronized (this) {
            list.add(entry);
        }
    }

    @Override
    public void channelRegistered(ChannelHandlerContext ctx) {
        record(ctx, "registered");
        ctx.fireChannelRegistered();
        if (closeWhenRegistered) {
            ctx.close();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        record(ctx, "active");
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        record(ctx, "inactive");
        ctx.fireChannelInactive();
    }

    @Override
    public void channelUnregistered(ChannelHandlerContext ctx) {
        record(ctx, "unregistered");
        ctx.fireChannelUnregistered();
        latch(ctx.channel()).countDown();
    }
}
