package io.rill.channel.local;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

import io.rill.channel.IoHandle;
import io.rill.channel.IoHandler;
import io.rill.channel.IoHandlerContext;
import io.rill.channel.IoHandlerFactory;
import io.rill.channel.IoOps;
import io.rill.channel.IoRegistration;
import io.rill.util.InternalLogger;

/**
 * The {@link IoHandler} of the in-VM transport: no poller, since local channels hand data to each
 * other as event-loop tasks. {@link #run} only parks the loop thread while there is nothing to
 * do, and {@link #wakeup()} unparks it:
 * {@code new MultiThreadIoEventLoopGroup(LocalIoHandler.newFactory())}.
 *
 * <p>Wake-up protocol (the same as {@code NioIoHandler}'s): before parking, {@code run} sets
 * {@code sleeping}, then asks the loop again whether it may block. A task queued before that
 * second question is seen by it; one queued after finds {@code sleeping} set, and its
 * {@code wakeup()} clears it and unparks the thread. An unpark that comes before the park is not
 * lost either: {@link LockSupport} keeps it as a permit. A busy loop never pays for an unpark.
 *
 * <p>Only {@link LocalChannel} and {@link LocalServerChannel} register here; NIO channels need an
 * NIO loop, and local channels cannot run on an NIO loop ({@link #isCompatible}).
 */
public final class LocalIoHandler implements IoHandler {

    private static final InternalLogger LOG = InternalLogger.get(LocalIoHandler.class);
    private static final VarHandle SLEEPING;

    static {
        try {
            SLEEPING = MethodHandles.lookup().findVarHandle(LocalIoHandler.class, "sleeping", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The loop thread, set by {@link #initialize()} before the first {@link #run}; what wakeup unparks. */
    private volatile Thread loopThread;
    /** True while the loop thread may be parked; see the class comment. */
    @SuppressWarnings("unused")
    private volatile boolean sleeping;
    /** Registered handles, to close at shutdown. Loop thread only. */
    private final Set<LocalIoHandle> handles = new LinkedHashSet<>();

    private LocalIoHandler() {
    }

    /** {@return a factory for {@link io.rill.channel.MultiThreadIoEventLoopGroup}: one handler per loop} */
    public static IoHandlerFactory newFactory() {
        return LocalIoHandler::new;
    }

    @Override
    public void initialize() {
        loopThread = Thread.currentThread();
    }

    @Override
    public int run(IoHandlerContext context) {
        if (context.canBlock()) {
            sleeping = true;
            try {
                if (context.canBlock()) {
                    long parkStart = System.nanoTime();
                    park(context.delayNanos());
                    context.waited(System.nanoTime() - parkStart);
                }
            } finally {
                sleeping = false;
            }
        }
        return 0;
    }

    private void park(long delayNanos) {
        if (delayNanos == Long.MAX_VALUE) {
            LockSupport.park(this);
        } else if (delayNanos > 0) {
            LockSupport.parkNanos(this, delayNanos);
        }
        // A spurious return is harmless: the loop runs its (possibly empty) tasks and comes back.
    }

    @Override
    public void wakeup() {
        if (SLEEPING.compareAndSet(this, true, false)) {
            LockSupport.unpark(loopThread);
        }
    }

    @Override
    public IoRegistration register(IoHandle handle) {
        if (!(handle instanceof LocalIoHandle local)) {
            throw new IllegalArgumentException("not a local handle: " + handle);
        }
        handles.add(local);
        return new Registration(local);
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return LocalIoHandle.class.isAssignableFrom(handleType);
    }

    @Override
    public void prepareToDestroy() {
        // Copy first: closing a channel cancels its registration, which edits the set.
        List<LocalIoHandle> open = new ArrayList<>(handles);
        for (LocalIoHandle handle : open) {
            try {
                handle.close();
            } catch (Throwable t) {
                LOG.warn("Failed to close " + handle, t);
            }
        }
    }

    @Override
    public void destroy() {
        handles.clear();
    }

    /** A handle's place in {@link #handles}; interest is meaningless without a poller. */
    private final class Registration implements IoRegistration {
        private final LocalIoHandle handle;
        /** False once cancelled. Loop thread only. */
        private boolean valid = true;

        Registration(LocalIoHandle handle) {
            this.handle = handle;
        }

        @Override
        public void submit(IoOps interest) {
        }

        @Override
        public boolean isValid() {
            return valid;
        }

        @Override
        public boolean cancel() {
            if (!valid) {
                return false;
            }
            valid = false;
            handles.remove(handle);
            return true;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T attachment() {
            return (T) handle;
        }
    }
}
