package io.rill.channel.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.BindException;
import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.IoEventLoop;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.WriteBufferWaterMark;
import io.rill.channel.group.ChannelGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.util.concurrent.DefaultThreadFactory;
import io.rill.util.concurrent.Future;

@Timeout(30)
class LocalChannelTest {

    private final MultiThreadIoEventLoopGroup group =
            new MultiThreadIoEventLoopGroup(2, new DefaultThreadFactory("local-test", true), LocalIoHandler.newFactory());
    private final List<Channel> channels = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (Channel ch : channels) {
            ch.close().await(5, TimeUnit.SECONDS);
        }
        assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
    }

    /** A server on {@code address} whose accepted channels get {@code init} before registration. */
    private LocalServerChannel server(LocalAddress address, Consumer<LocalChannel> init) throws Exception {
        LocalServerChannel server = new LocalServerChannel(group.next(), group);
        channels.add(server);
        server.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                LocalChannel child = (LocalChannel) msg;
                channels.add(child);
                init.accept(child);
                child.register();
            }
        });
        server.register().sync();
        server.bind(address).sync();
        return server;
    }

    private LocalChannel client(LocalAddress address, ChannelHandler... handlers) throws Exception {
        return client(address, true, handlers);
    }

    private LocalChannel client(LocalAddress address, boolean autoRead, ChannelHandler... handlers)
            throws Exception {
        LocalChannel client = new LocalChannel(group.next());
        client.config().setAutoRead(autoRead); // before connecting, so no read can start first
        channels.add(client);
        client.pipeline().addLast(handlers);
        client.register().sync();
        client.connect(address).sync();
        return client;
    }

    /** Echoes every message back. */
    @ChannelHandler.Sharable
    static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg);
        }
    }

    /** Appends received bytes; completes when {@code expected} bytes arrived. */
    static final class Collector implements ChannelHandler {
        final ByteBuf received = Unpooled.buffer();
        final int expected;
        final CompletableFuture<ByteBuf> done = new CompletableFuture<>();

        Collector(int expected) {
            this.expected = expected;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                received.writeBytes(buf);
            } finally {
                buf.release();
            }
            if (received.readableBytes() >= expected) {
                done.complete(received);
            }
        }
    }

    @Test
    void echoesBytesOfSeveralSizesBackUnchanged() throws Exception {
        server(new LocalAddress("echo"), child -> child.pipeline().addLast(new Echo()));
        Random random = new Random(42);
        for (int size : new int[] {1, 100, 4096, 65_536, 1 << 20}) {
            byte[] data = new byte[size];
            random.nextBytes(data);
            Collector collector = new Collector(size);
            LocalChannel client = client(new LocalAddress("echo"), collector);
            // Several writes of up to 8 KiB each, like a stream.
            for (int off = 0; off < size; off += 8192) {
                client.write(Unpooled.copiedBuffer(data, off, Math.min(8192, size - off)));
            }
            client.flush();
            ByteBuf echoed = collector.done.get(10, TimeUnit.SECONDS);
            ByteBuf expected = Unpooled.wrappedBuffer(data);
            assertTrue(ByteBufUtil.equals(expected, echoed), "echo of " + size + " bytes");
            expected.release();
            client.close().sync();
            echoed.release();
        }
    }

    @Test
    void manyWritesFromAnotherThreadArriveInOrder() throws Exception {
        int count = 20_000;
        List<Object> arrived = new ArrayList<>(); // the server side's loop only, until the latch opens
        CountDownLatch done = new CountDownLatch(1);
        server(new LocalAddress("order"), child -> child.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                arrived.add(msg);
                if (arrived.size() == count) {
                    done.countDown();
                }
            }
        }));
        LocalChannel client = client(new LocalAddress("order"));
        for (int i = 0; i < count; i++) {
            client.write(i);
            if (i % 97 == 0) {
                client.flush();
            }
        }
        client.flush();
        assertTrue(done.await(10, TimeUnit.SECONDS));
        for (int i = 0; i < count; i++) {
            assertEquals(i, arrived.get(i));
        }
    }

    @Test
    void aReaderWithAutoReadOffHoldsTheWriterBackUntilItReads() throws Exception {
        int count = 3 * LocalInbox.CAPACITY;
        AtomicInteger arrived = new AtomicInteger();
        CompletableFuture<LocalChannel> accepted = new CompletableFuture<>();
        server(new LocalAddress("slow"), child -> {
            child.config().setAutoRead(false);
            child.pipeline().addLast(new ChannelHandler() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    ((ByteBuf) msg).release();
                    arrived.incrementAndGet();
                }
            });
            accepted.complete(child);
        });
        CountDownLatch unwritable = new CountDownLatch(1);
        CountDownLatch writableAgain = new CountDownLatch(1);
        LocalChannel client = client(new LocalAddress("slow"), new ChannelHandler() {
            @Override
            public void channelWritabilityChanged(ChannelHandlerContext ctx) {
                (ctx.channel().isWritable() ? writableAgain : unwritable).countDown();
            }
        });
        LocalChannel child = accepted.get(5, TimeUnit.SECONDS);
        List<Future<Void>> writes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            writes.add(client.write(Unpooled.buffer(100).writeZero(100)));
        }
        client.flush();
        // The inbox takes CAPACITY messages; the rest stays in the client's buffer, past its high water mark.
        assertTrue(unwritable.await(10, TimeUnit.SECONDS));
        assertEquals(0, arrived.get());
        assertFalse(writes.get(LocalInbox.CAPACITY + 1).isDone(), "writes beyond the inbox wait in the writer");

        // With AUTO_READ off, each read() delivers one message.
        for (int i = 1; i <= 5; i++) {
            child.read();
            awaitCount(arrived, i);
        }
        child.eventLoop().submit(() -> { }).sync();
        assertEquals(5, arrived.get());

        child.config().setAutoRead(true);
        awaitCount(arrived, count);
        assertTrue(writableAgain.await(10, TimeUnit.SECONDS));
        for (Future<Void> w : writes) {
            assertTrue(w.await(5, TimeUnit.SECONDS) && w.isSuccess());
        }
    }

    @Test
    void pendingBytesCountedFromSeveralThreadsAtOnceAddUpExactly() throws Exception {
        server(new LocalAddress("pending"), child -> { });
        LocalChannel client = client(new LocalAddress("pending"));
        client.config().setWriteBufferWaterMark(new WriteBufferWaterMark(1 << 20, 1 << 21));
        long before = client.bytesBeforeUnwritable();
        int threads = 4;
        int perThread = 10_000;
        // The buffer's count has a single writer, the event loop: calls from elsewhere must be handed to it.
        runConcurrently(threads, () -> {
            for (int i = 0; i < perThread; i++) {
                client.incrementPendingOutboundBytes(3);
            }
        });
        client.eventLoop().submit(() -> { }).sync();
        assertEquals(before - 3L * threads * perThread, client.bytesBeforeUnwritable());
        runConcurrently(threads, () -> {
            for (int i = 0; i < perThread; i++) {
                client.decrementPendingOutboundBytes(3);
            }
        });
        client.eventLoop().submit(() -> { }).sync();
        assertEquals(before, client.bytesBeforeUnwritable());
        assertTrue(client.isWritable());
    }

    private static void runConcurrently(int threads, Runnable body) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            done.add(CompletableFuture.runAsync(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                body.run();
            }, runnable -> new Thread(runnable).start()));
        }
        start.countDown();
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
    }

    private static void awaitCount(AtomicInteger counter, int expected) {
        awaitTrue(() -> counter.get() >= expected, expected + " arrived");
    }

    /** Spins (no sleeping) until {@code condition} holds, failing after 10 seconds. */
    private static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting until " + what);
            Thread.onSpinWait();
        }
    }

    @Test
    void floodsInBothDirectionsAtOnceNeitherDeadlockNorLoseBytes() throws Exception {
        int messages = 4 * LocalInbox.CAPACITY;
        int size = 512;
        int total = messages * size;
        Collector atServer = new Collector(total);
        CompletableFuture<LocalChannel> accepted = new CompletableFuture<>();
        server(new LocalAddress("flood"), child -> {
            child.pipeline().addLast(atServer);
            accepted.complete(child);
        });
        Collector atClient = new Collector(total);
        LocalChannel client = client(new LocalAddress("flood"), atClient);
        LocalChannel child = accepted.get(5, TimeUnit.SECONDS);
        // Both ends write from their own loops, so each loop is writer and reader at once.
        for (LocalChannel ch : List.of(client, child)) {
            ch.eventLoop().execute(() -> {
                for (int i = 0; i < messages; i++) {
                    ch.write(Unpooled.buffer(size).writeZero(size));
                    if (i % 64 == 63) {
                        ch.flush();
                    }
                }
                ch.flush();
            });
        }
        assertEquals(total, atServer.done.get(10, TimeUnit.SECONDS).readableBytes());
        assertEquals(total, atClient.done.get(10, TimeUnit.SECONDS).readableBytes());
        atServer.received.release();
        atClient.received.release();
    }

    @Test
    void largeBuffersAreBoundedByBytesAndAWriterClosingFailsWhatThePeerNeverTook() throws Exception {
        CompletableFuture<LocalChannel> accepted = new CompletableFuture<>();
        server(new LocalAddress("big"), accepted::complete);
        LocalChannel client = client(new LocalAddress("big"), false); // never reads: writes pile up
        LocalChannel child = accepted.get(5, TimeUnit.SECONDS);
        int chunk = (int) LocalInbox.MAX_BYTES;
        List<Future<Void>> writes = child.eventLoop().submit(() -> {
            List<Future<Void>> w = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                w.add(child.write(Unpooled.directBuffer(chunk).writeZero(chunk)));
            }
            child.flush();
            return w;
        }).get(5, TimeUnit.SECONDS);
        // The first chunk fills the inbox to its byte bound; the others wait in the writer.
        assertTrue(writes.get(0).await(5, TimeUnit.SECONDS) && writes.get(0).isSuccess());
        assertFalse(writes.get(1).isDone());
        child.close();
        for (Future<Void> w : writes.subList(1, writes.size())) {
            assertTrue(w.await(5, TimeUnit.SECONDS));
            assertInstanceOf(ClosedChannelException.class, w.cause());
        }
        // The client still gets what did arrive, then the close.
        client.read();
        assertTrue(client.closeFuture().await(5, TimeUnit.SECONDS));
    }

    @Test
    void closingTheClientClosesTheServerSideAfterItReadEverythingWritten() throws Exception {
        int count = 500;
        AtomicInteger arrived = new AtomicInteger();
        CompletableFuture<Integer> seenAtInactive = new CompletableFuture<>();
        CompletableFuture<LocalChannel> accepted = new CompletableFuture<>();
        server(new LocalAddress("close-c"), child -> {
            child.pipeline().addLast(new ChannelHandler() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    arrived.incrementAndGet();
                }

                @Override
                public void channelInactive(ChannelHandlerContext ctx) {
                    seenAtInactive.complete(arrived.get());
                }
            });
            accepted.complete(child);
        });
        LocalChannel client = client(new LocalAddress("close-c"));
        for (int i = 0; i < count; i++) {
            client.write(i);
        }
        client.flush();
        client.close();
        assertEquals(count, seenAtInactive.get(10, TimeUnit.SECONDS));
        assertTrue(accepted.get().closeFuture().await(5, TimeUnit.SECONDS));
        assertFalse(client.isOpen());
    }

    @Test
    void closingTheServerSideClosesTheClient() throws Exception {
        CompletableFuture<LocalChannel> accepted = new CompletableFuture<>();
        server(new LocalAddress("close-s"), accepted::complete);
        LocalChannel client = client(new LocalAddress("close-s"));
        LocalChannel child = accepted.get(5, TimeUnit.SECONDS);
        assertEquals(client.localAddress(), child.remoteAddress());
        assertEquals(new LocalAddress("close-s"), client.remoteAddress());
        child.close().sync();
        assertTrue(client.closeFuture().await(5, TimeUnit.SECONDS));
        assertFalse(client.isActive());
    }

    @Test
    void aChannelGroupBroadcastsToEveryConnectionAndClosesThemAll() throws Exception {
        ChannelGroup accepted = new ChannelGroup("accepted");
        server(new LocalAddress("broadcast"), child -> {
            accepted.add(child);
            child.pipeline().addLast(new Echo());
        });
        List<Collector> collectors = new ArrayList<>();
        List<LocalChannel> clients = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Collector c = new Collector(5);
            collectors.add(c);
            clients.add(client(new LocalAddress("broadcast"), c));
        }
        // The group learns of a server side when it registers, which precedes the client's connect.
        assertEquals(3, accepted.size());
        ChannelGroup group = new ChannelGroup("clients");
        group.addAll(clients);
        assertTrue(group.writeAndFlush(Unpooled.copiedBuffer(new byte[] {1, 2, 3, 4, 5})).await(5, TimeUnit.SECONDS));
        for (Collector c : collectors) {
            assertEquals(5, c.done.get(5, TimeUnit.SECONDS).readableBytes());
            c.received.release();
        }
        assertTrue(accepted.close().await(5, TimeUnit.SECONDS));
        for (LocalChannel client : clients) {
            assertTrue(client.closeFuture().await(5, TimeUnit.SECONDS));
        }
        // Members leave from a close-future listener, which runs on each channel's loop after await() returned.
        awaitTrue(group::isEmpty, "closed clients leave the group");
        awaitTrue(accepted::isEmpty, "closed server sides leave the group");
    }

    @Test
    void connectingToAnUnboundAddressFailsNamingTheAddress() throws Exception {
        LocalChannel client = new LocalChannel(group.next());
        channels.add(client);
        client.register().sync();
        Future<Void> connect = client.connect(new LocalAddress("nobody-home")).await();
        ConnectException e = assertInstanceOf(ConnectException.class, connect.cause());
        assertTrue(e.getMessage().contains("local:nobody-home"), e.getMessage());
    }

    @Test
    void bindingAnAddressInUseFailsUntilTheOwnerCloses() throws Exception {
        LocalServerChannel first = server(new LocalAddress("taken"), child -> { });
        LocalServerChannel second = new LocalServerChannel(group.next());
        channels.add(second);
        second.register().sync();
        Future<Void> bind = second.bind(new LocalAddress("taken")).await();
        BindException e = assertInstanceOf(BindException.class, bind.cause());
        assertTrue(e.getMessage().contains("local:taken"), e.getMessage());
        first.close().sync();
        second.bind(new LocalAddress("taken")).sync();
        assertEquals(new LocalAddress("taken"), second.localAddress());
    }

    @Test
    void bindingAnyGivesEachServerItsOwnGeneratedAddress() throws Exception {
        LocalServerChannel a = server(LocalAddress.ANY, child -> child.pipeline().addLast(new Echo()));
        LocalServerChannel b = server(LocalAddress.ANY, child -> { });
        assertNotEquals(LocalAddress.ANY, a.localAddress());
        assertNotEquals(a.localAddress(), b.localAddress());
        Collector collector = new Collector(3);
        LocalChannel client = client(a.localAddress(), collector);
        client.writeAndFlush(Unpooled.copiedBuffer(new byte[] {1, 2, 3}));
        assertEquals(3, collector.done.get(5, TimeUnit.SECONDS).readableBytes());
        collector.received.release();
    }

    @Test
    void anAcceptedChannelNobodyRegistersIsRefusedAtOnce() throws Exception {
        LocalServerChannel server = new LocalServerChannel(group.next());
        channels.add(server);
        server.register().sync();
        server.bind(new LocalAddress("no-acceptor")).sync();
        LocalChannel client = new LocalChannel(group.next());
        channels.add(client);
        client.register().sync();
        Future<Void> connect = client.connect(new LocalAddress("no-acceptor")).await();
        assertInstanceOf(ConnectException.class, connect.cause());
    }

    @Test
    void theLoopWakesForEveryTaskSubmittedFromAnotherThread() throws Exception {
        IoEventLoop loop = group.next();
        AtomicInteger ran = new AtomicInteger();
        // Each round trip lets the loop park again, so every submit must wake it.
        for (int i = 0; i < 5_000; i++) {
            loop.submit(ran::incrementAndGet).get(5, TimeUnit.SECONDS);
        }
        // And a burst without waiting in between, racing the loop going to sleep.
        for (int i = 0; i < 20_000; i++) {
            loop.execute(ran::incrementAndGet);
        }
        awaitCount(ran, 25_000);
        // Scheduled tasks wake a loop parked with a deadline.
        CountDownLatch scheduled = new CountDownLatch(50);
        for (int i = 0; i < 50; i++) {
            loop.schedule(scheduled::countDown, 1 + i % 5, TimeUnit.MILLISECONDS);
        }
        assertTrue(scheduled.await(10, TimeUnit.SECONDS));
    }

    @Test
    void localChannelsRefuseALoopWithoutALocalIoHandler() throws Exception {
        MultiThreadIoEventLoopGroup nio = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            LocalChannel ch = new LocalChannel(nio.next());
            Future<Void> register = ch.register().await();
            IllegalStateException e = assertInstanceOf(IllegalStateException.class, register.cause());
            assertTrue(e.getMessage().contains("LocalIoHandler"), e.getMessage());
            ch.close().sync();
        } finally {
            assertTrue(nio.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void shuttingTheGroupDownClosesItsLocalChannels() throws Exception {
        server(new LocalAddress("shutdown"), child -> { });
        LocalChannel client = client(new LocalAddress("shutdown"));
        assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        assertFalse(client.isOpen());
        assertTrue(client.closeFuture().isDone());
    }
}
