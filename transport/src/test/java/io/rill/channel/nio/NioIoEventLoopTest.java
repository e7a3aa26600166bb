package io.rill.channel.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rill.channel.IoEventLoop;
import io.rill.channel.IoHandle;
import io.rill.channel.IoOps;
import io.rill.channel.IoRegistration;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.util.concurrent.DefaultThreadFactory;

class NioIoEventLoopTest {

    private MultiThreadIoEventLoopGroup group;
    private IoEventLoop loop;
    private ServerSocketChannel server;

    @BeforeEach
    void start() throws IOException {
        group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("nio-test", true), NioIoHandler.newFactory());
        loop = group.next();
        server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
    }

    private SocketChannel connectClient() throws IOException {
        return SocketChannel.open(server.getLocalAddress());
    }

    /** Registers {@code handle} and sets its interest on the loop thread. */
    private IoRegistration register(TestHandle handle, NioIoOps interest) throws Exception {
        IoRegistration registration = loop.register(handle).get(5, TimeUnit.SECONDS);
        loop.submit(() -> registration.submit(interest)).get(5, TimeUnit.SECONDS);
        return registration;
    }

    @Test
    void acceptReadinessReachesTheRegisteredHandleOnTheLoopThread() throws Exception {
        CompletableFuture<SocketChannel> accepted = new CompletableFuture<>();
        TestHandle handle = new TestHandle(server, (registration, ops) -> {
            assertTrue(loop.inEventLoop());
            assertTrue(((NioIoOps) ops).isAcceptable(), ops.toString());
            try {
                SocketChannel ch = server.accept();
                if (ch != null) {
                    accepted.complete(ch);
                }
            } catch (IOException e) {
                accepted.completeExceptionally(e);
            }
        });
        register(handle, NioIoOps.ACCEPT);
        try (SocketChannel client = connectClient(); SocketChannel serverSide = accepted.get(5, TimeUnit.SECONDS)) {
            assertEquals(client.getLocalAddress(), serverSide.getRemoteAddress());
        }
    }

    @Test
    void taskFromAnotherThreadWakesASelectBlockedWithoutTimeout() throws Exception {
        register(new TestHandle(server, (r, ops) -> { }), NioIoOps.ACCEPT);
        for (int i = 0; i < 200; i++) {
            // Nothing is scheduled, so each submission finds the loop blocked in select(0) or about to be.
            assertEquals(i, loop.submit(() -> 0).get(5, TimeUnit.SECONDS) + i);
        }
    }

    @Test
    void scheduledTaskRunsWhileTheLoopWaitsForIo() throws Exception {
        register(new TestHandle(server, (r, ops) -> { }), NioIoOps.ACCEPT);
        long start = System.nanoTime();
        assertEquals("due", loop.schedule(() -> "due", 20, TimeUnit.MILLISECONDS).get(5, TimeUnit.SECONDS));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(20));
    }

    @Test
    void readinessIsDeliveredEvenWhileTasksFloodTheLoop() throws Exception {
        AtomicBoolean flooding = new AtomicBoolean(true);
        Runnable flood = new Runnable() {
            @Override
            public void run() {
                if (flooding.get()) {
                    loop.execute(this); // always one more task queued: the loop never has an idle moment
                }
            }
        };
        CountDownLatch accepted = new CountDownLatch(1);
        register(new TestHandle(server, (r, ops) -> {
            try {
                if (server.accept() != null) {
                    accepted.countDown();
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }), NioIoOps.ACCEPT);
        loop.execute(flood);
        try (SocketChannel client = connectClient()) {
            assertTrue(accepted.await(5, TimeUnit.SECONDS), "the task flood starved the selector");
        } finally {
            flooding.set(false);
        }
    }

    @Test
    void handleThatThrowsIsClosedAndTheLoopKeepsServing() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        TestHandle throwing = new TestHandle(server, (r, ops) -> {
            throw new IllegalStateException("handle failure (expected by test)");
        }) {
            @Override
            public void close() throws IOException {
                super.close();
                closed.countDown();
            }
        };
        register(throwing, NioIoOps.ACCEPT);
        try (SocketChannel client = connectClient()) {
            assertTrue(closed.await(5, TimeUnit.SECONDS));
        }
        assertFalse(server.isOpen());
        assertEquals("alive", loop.submit(() -> "alive").get(5, TimeUnit.SECONDS));
    }

    @Test
    void readAndWriteReadinessArriveForAConnectedPair() throws Exception {
        try (SocketChannel client = connectClient(); SocketChannel serverSide = server.accept()) {
            CompletableFuture<String> received = new CompletableFuture<>();
            ByteBuffer buf = ByteBuffer.allocate(16);
            register(new TestHandle(serverSide, (registration, ops) -> {
                try {
                    if (((NioIoOps) ops).isReadable() && serverSide.read(buf) > 0) {
                        buf.flip();
                        received.complete(java.nio.charset.StandardCharsets.US_ASCII.decode(buf).toString());
                        registration.submit(NioIoOps.NONE);
                    }
                } catch (IOException e) {
                    received.completeExceptionally(e);
                }
            }), NioIoOps.READ);
            client.write(ByteBuffer.wrap("ping".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
            assertEquals("ping", received.get(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void shutdownClosesEveryRegisteredHandleAndRefusesNewOnes() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        register(new TestHandle(server, (r, ops) -> { }) {
            @Override
            public void close() throws IOException {
                super.close();
                closed.countDown();
            }
        }, NioIoOps.ACCEPT);
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS);
        assertTrue(closed.await(5, TimeUnit.SECONDS));
        assertFalse(server.isOpen());
        assertTrue(group.terminationFuture().await(5, TimeUnit.SECONDS));
        assertThrows(java.util.concurrent.RejectedExecutionException.class,
                () -> loop.register(new TestHandle(SocketChannel.open(), (r, ops) -> { })));
    }

    @Test
    void registrationOfAnIncompatibleHandleFailsItsFuture() throws Exception {
        IoHandle foreign = new IoHandle() {
            @Override
            public void handle(IoRegistration registration, IoOps readyOps) {
            }

            @Override
            public void close() {
            }
        };
        assertFalse(loop.isCompatible(foreign.getClass()));
        assertTrue(loop.isCompatible(TestHandle.class));
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> loop.register(foreign).get(5, TimeUnit.SECONDS));
        assertInstanceOf(ClassCastException.class, e.getCause());
    }

    @Test
    void readyOpsSetsAreSharedConstants() {
        assertTrue(NioIoOps.valueOf(java.nio.channels.SelectionKey.OP_READ) == NioIoOps.READ);
        assertEquals(NioIoOps.READ_AND_WRITE, NioIoOps.READ.with(NioIoOps.WRITE));
        assertEquals(NioIoOps.READ, NioIoOps.READ_AND_WRITE.without(NioIoOps.WRITE));
        assertEquals("NioIoOps(READ|WRITE)", NioIoOps.READ_AND_WRITE.toString());
        assertThrows(IllegalArgumentException.class, () -> NioIoOps.valueOf(1 << 7));
    }

    private static class TestHandle implements NioIoHandle {
        private final SelectableChannel channel;
        private final BiConsumer<IoRegistration, IoOps> onReady;

        TestHandle(SelectableChannel channel, BiConsumer<IoRegistration, IoOps> onReady) {
            this.channel = channel;
            this.onReady = onReady;
        }

        @Override
        public SelectableChannel selectableChannel() {
            return channel;
        }

        @Override
        public void handle(IoRegistration registration, IoOps readyOps) {
            onReady.accept(registration, readyOps);
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
