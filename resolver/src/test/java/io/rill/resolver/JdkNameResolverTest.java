package io.rill.resolver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.util.concurrent.DefaultEventExecutor;
import io.rill.util.concurrent.Future;

class JdkNameResolverTest {

    private final DefaultEventExecutor executor = new DefaultEventExecutor();

    @AfterEach
    void stop() {
        assertTrue(executor.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS));
    }

    @Test
    void resolvesALiteralAndCompletesOnTheResolversExecutor() throws Exception {
        JdkNameResolver resolver = new JdkNameResolver(executor);
        CountDownLatch onExecutor = new CountDownLatch(1);
        Future<List<InetAddress>> f = resolver.resolveAll("127.0.0.1");
        f.addListener(x -> {
            if (executor.inEventLoop()) {
                onExecutor.countDown();
            }
        });
        assertEquals(List.of(InetAddress.getByName("127.0.0.1")), f.get(10, TimeUnit.SECONDS));
        assertTrue(onExecutor.await(10, TimeUnit.SECONDS));
    }

    @Test
    void anUnknownNameFailsWithUnknownHostException() throws Exception {
        Future<InetAddress> f = new JdkNameResolver(executor).resolve("no-such-host.invalid");
        assertTrue(f.await(30, TimeUnit.SECONDS));
        assertInstanceOf(UnknownHostException.class, f.cause());
    }

    @Test
    void aFullPoolRefusesAtOnceNamingItsLimits() throws Exception {
        JdkLookupPool pool = new JdkLookupPool(1, 1);
        CountDownLatch release = new CountDownLatch(1);
        pool.execute(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        pool.execute(() -> { });
        Future<List<InetAddress>> f = new JdkNameResolver(executor, pool).resolveAll("localhost");
        assertTrue(f.await(10, TimeUnit.SECONDS));
        RejectedExecutionException e = assertInstanceOf(RejectedExecutionException.class, f.cause());
        assertTrue(e.getMessage().contains("1 lookups running and 1 waiting"), e.getMessage());
        release.countDown();
    }

    @Test
    void aGroupGivesEachExecutorOneResolverAndKeepsThePort() throws Exception {
        AddressResolver<InetSocketAddress> r = JdkAddressResolverGroup.INSTANCE.getResolver(executor);
        assertSame(r, JdkAddressResolverGroup.INSTANCE.getResolver(executor));
        InetSocketAddress unresolved = InetSocketAddress.createUnresolved("127.0.0.1", 8080);
        assertFalse(r.isResolved(unresolved));
        InetSocketAddress resolved = r.resolve(unresolved).get(10, TimeUnit.SECONDS);
        assertEquals(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 8080), resolved);
        assertNotEquals(unresolved, resolved);
    }
}
