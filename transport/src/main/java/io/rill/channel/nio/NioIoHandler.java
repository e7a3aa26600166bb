package io.rill.channel.nio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.spi.SelectorProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.rill.util.InternalLogger;
import io.rill.channel.IoHandle;
import io.rill.channel.IoHandler;
import io.rill.channel.IoHandlerContext;
import io.rill.channel.IoHandlerFactory;
import io.rill.channel.IoOps;
import io.rill.channel.IoRegistration;

/**
 * An {@link IoHandler} over a JDK {@link Selector}, through the public
 * {@link Selector#select(Consumer, long)} API: ready keys are handed to a consumer made once, so
 * a turn of the loop allocates nothing, and no reflection into the selector is needed.
 *
 * <p>Wake-up: before blocking the handler sets {@code sleeping} and asks the loop once more
 * whether it may block; {@link #wakeup()} calls {@link Selector#wakeup()} only if it flips
 * {@code sleeping} back. A task queued just before the second question is seen by it; one queued
 * after finds {@code sleeping} set and wakes the selector. So no wake-up is lost, and a busy loop
 * pays no wake-up system calls.
 */
public final class NioIoHandler implements IoHandler {

    private static final InternalLogger LOG = InternalLogger.get(NioIoHandler.class);
    private static final VarHandle SLEEPING;
    private static final Consumer<SelectionKey> IGNORE_READY = key -> { };

    static {
        try {
            SLEEPING = MethodHandles.lookup().findVarHandle(NioIoHandler.class, "sleeping", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Selector selector;
    private final Consumer<SelectionKey> onReady = this::processReady;
    /** True while the loop may be blocked in select; see the class comment. */
    @SuppressWarnings("unused")
    private volatile boolean sleeping;
    /** Handles processed in the current turn. Loop thread only. */
    private int processed;
    /** True while run() is inside a select (handles run there); the selector refuses a nested select. Loop thread only. */
    private boolean selecting;
    /** System.nanoTime() when a blocking select began, 0 outside one; loop thread only. */
    private long waitStartNanos;
    /** System.nanoTime() when the blocking select handed over its first ready key, 0 until then; loop thread only. */
    private long wokeNanos;

    private NioIoHandler(SelectorProvider provider) {
        try {
            this.selector = provider.openSelector();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
    }

    /** {@return a factory of handlers over the platform's default selector} */
    public static IoHandlerFactory newFactory() {
        return newFactory(SelectorProvider.provider());
    }

    /**
     * {@return a factory of handlers over selectors of {@code provider}}
     *
     * @param provider the selector provider
     */
    public static IoHandlerFactory newFactory(SelectorProvider provider) {
        if (provider == null) {
            throw new NullPointerException("provider");
        }
        return () -> new NioIoHandler(provider);
    }

    @Override
    public int run(IoHandlerContext context) {
        processed = 0;
        selecting = true;
        try {
            if (context.canBlock()) {
                sleeping = true;
                try {
                    if (context.canBlock()) {
                        waitStartNanos = System.nanoTime();
                        wokeNanos = 0;
                        select(context.delayNanos());
                        // Keys are handled inside select(): the wait ended when the first one came.
                        context.waited((wokeNanos != 0 ? wokeNanos : System.nanoTime()) - waitStartNanos);
                    } else {
                        selector.selectNow(onReady);
                    }
                } finally {
                    sleeping = false;
                    waitStartNanos = 0;
                }
            } else {
                selector.selectNow(onReady);
            }
        } catch (IOException e) {
            LOG.warn("select() failed on " + selector, e);
        } finally {
            selecting = false;
        }
        return processed;
    }

    private void select(long delayNanos) throws IOException {
        if (delayNanos == Long.MAX_VALUE) {
            selector.select(onReady, 0); // 0: until a key is ready or wakeup()
        } else if (delayNanos <= 0) {
            selector.selectNow(onReady);
        } else {
            // Round up: waking before the deadline would only spin through another select.
            selector.select(onReady, Math.max(1, (delayNanos + 999_999) / 1_000_000));
        }
    }

    private void processReady(SelectionKey key) {
        // The selector calls this once it has returned, before the handles run: clear the flag
        // now, not after the last of them, or a task queued by a thread this turn unparks (the
        // application waiting for a read) would cost a needless wake-up and another select.
        if (sleeping) {
            sleeping = false;
        }
        if (waitStartNanos != 0 && wokeNanos == 0) {
            wokeNanos = System.nanoTime();
        }
        Registration registration = (Registration) key.attachment();
        int ready;
        try {
            ready = key.readyOps();
        } catch (CancelledKeyException e) {
            return; // cancelled by an earlier handle in this same turn
        }
        processed++;
        try {
            registration.handle.handle(registration, NioIoOps.valueOf(ready));
        } catch (Throwable t) {
            // A handle that throws would be selected again at once: close it rather than spin.
            LOG.warn("Handle " + registration.handle + " threw; closing it", t);
            closeQuietly(registration.handle);
        }
    }

    @Override
    public void wakeup() {
        if (SLEEPING.compareAndSet(this, true, false)) {
            selector.wakeup();
        }
    }

    @Override
    public IoRegistration register(IoHandle handle) throws IOException {
        NioIoHandle nioHandle = (NioIoHandle) handle;
        SelectableChannel channel = nioHandle.selectableChannel();
        channel.configureBlocking(false);
        Registration registration = new Registration(this, nioHandle);
        try {
            registration.key = channel.register(selector, 0, registration);
        } catch (CancelledKeyException e) {
            // Deregistered earlier and the selector has not yet dropped the old key: flush it and retry.
            selector.selectNow();
            registration.key = channel.register(selector, 0, registration);
        }
        return registration;
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return NioIoHandle.class.isAssignableFrom(handleType);
    }

    @Override
    public void prepareToDestroy() {
        List<NioIoHandle> handles = new ArrayList<>();
        for (SelectionKey key : selector.keys()) {
            if (key.attachment() instanceof Registration) {
                handles.add(((Registration) key.attachment()).handle);
            }
        }
        for (NioIoHandle handle : handles) {
            closeQuietly(handle);
        }
    }

    @Override
    public void destroy() {
        try {
            selector.close();
        } catch (IOException e) {
            LOG.warn("Failed to close " + selector, e);
        }
    }

    private static void closeQuietly(IoHandle handle) {
        try {
            handle.close();
        } catch (Throwable t) {
            LOG.warn("Failed to close " + handle, t);
        }
    }

    /**
     * Makes the selector drop the keys cancelled so far, now rather than at the next select: the
     * JDK closes a channel's descriptor only once its key is dropped, so a listener closed right
     * after this holds its port no longer (a server restarted on it binds). Inside a select (a
     * handle cancelling itself) the selector refuses, and the next select drops them. Readiness
     * this reports is ignored: the selector is level-triggered, so the next select reports it again.
     */
    private void dropCancelledKeys() {
        if (selecting) {
            return;
        }
        try {
            selector.selectNow(IGNORE_READY);
        } catch (IOException e) {
            LOG.warn("selectNow() failed on " + selector + " while dropping cancelled keys", e);
        }
    }

    /** A handle's registration: its selection key. */
    private static final class Registration implements IoRegistration {
        final NioIoHandler handler;
        final NioIoHandle handle;
        SelectionKey key;

        Registration(NioIoHandler handler, NioIoHandle handle) {
            this.handler = handler;
            this.handle = handle;
        }

        @Override
        public void submit(IoOps interest) {
            key.interestOps((int) interest.value());
        }

        @Override
        public boolean isValid() {
            return key.isValid();
        }

        @Override
        public boolean cancel() {
            if (!key.isValid()) {
                return false;
            }
            key.cancel();
            handler.dropCancelledKeys();
            return true;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T attachment() {
            return (T) key;
        }
    }
}
