package io.rill.channel.epoll;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.rill.channel.IoHandle;
import io.rill.channel.IoHandler;
import io.rill.channel.IoHandlerContext;
import io.rill.channel.IoHandlerFactory;
import io.rill.channel.IoOps;
import io.rill.channel.IoRegistration;
import io.rill.util.InternalLogger;
import io.rill.util.RillProperties;

/**
 * An {@link IoHandler} over a Linux epoll instance. Channels ask for edge-triggered readiness
 * ({@code EPOLLET}) by default: one event per change, so a channel that stops reading before the
 * socket is drained must remember to read again itself (see {@code AbstractEpollChannel}).
 *
 * <pre>
 *   events (native, reused, grows x2 when a wait fills it, up to 4096 entries):
 *   | u32 events | u64 data = (registration id &lt;&lt; 32) | fd |  x maxEvents
 *   (12 bytes per entry on x86_64 where the struct is packed, 16 elsewhere: asked from C)
 *
 *   byFd[fd] -&gt; Registration, idByFd[fd], handleByFd[fd]   (descriptors are small dense ints: arrays, no boxing)
 * </pre>
 *
 * An event whose id does not match {@code idByFd[fd]} is for a descriptor that was closed and
 * reused earlier in the same batch, and is dropped.
 *
 * <p>Wake-up, as in {@code NioIoHandler}: before blocking, {@code sleeping} is set and the loop is
 * asked once more whether it may block; {@link #wakeup()} writes to the eventfd only if it flips
 * {@code sleeping} back, so a busy loop pays no wake-up system calls, and the loop never wakes
 * itself (the event loop calls wakeup only from other threads). The eventfd is level-triggered
 * and drained when it fires. Scheduled tasks bound the wait through epoll_wait's timeout, in
 * milliseconds rounded up.
 *
 * <p>Registration is lazy: a handle is added to epoll with its first non-empty interest, so a
 * socket that is not yet connected (which Linux reports as hung up) produces no event. An empty
 * interest afterwards keeps the descriptor registered edge-triggered with no events asked, so an
 * error or reset (EPOLLERR/EPOLLHUP, always reported) still arrives once, even on a half-closed
 * socket that no longer reads (docs/security-cases.md, case R-01).
 */
public final class EpollIoHandler implements IoHandler {

    private static final InternalLogger LOG = InternalLogger.get(EpollIoHandler.class);
    private static final VarHandle SLEEPING;
    private static final int MAX_EVENTS_CAP = 4096;
    /** Events whose handles are touched together before the first of them is handled; a power of two. */
    private static final int WARM_BATCH = RillProperties.EPOLL_WARM_BATCH;

    static {
        try {
            SLEEPING = MethodHandles.lookup().findVarHandle(EpollIoHandler.class, "sleeping", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int epfd;
    private final int eventFd;
    private final int eventSize = Native.epollEventSize();
    private final int dataOffset = Native.epollDataOffset();
    private ByteBuffer events;
    private long eventsAddress;
    private int maxEvents;
    /** Registrations by descriptor; null slots are free. Loop thread only. */
    private Registration[] byFd = new Registration[64];
    /**
     * The same registrations' ids and handles, by descriptor (0 and null when free): an event is checked
     * and dispatched from these dense arrays without reading the registration object itself, one
     * cache line fewer per event when thousands of connections take turns.
     */
    private int[] idByFd = new int[64];
    private EpollIoHandle[] handleByFd = new EpollIoHandle[64];
    /** Distinguishes successive registrations of one descriptor number. */
    private int nextId = 1;
    /** Keeps what {@link #warmUp(int, int)} read, so that the JIT cannot drop the loads. */
    @SuppressWarnings("unused")
    private int warmSink;
    /** True while the loop may be blocked in epoll_wait; see the class comment. */
    @SuppressWarnings("unused")
    private volatile boolean sleeping;
    private boolean destroyed;

    private EpollIoHandler(int maxEvents) {
        Epoll.ensureAvailability();
        int ep = -1;
        int ev = -1;
        try {
            ep = Errors.check("epoll_create1", Native.epollCreate());
            ev = Errors.check("eventfd", Native.eventFd());
            Errors.check("epoll_ctl", Native.epollCtl(ep, Native.EPOLL_CTL_ADD, ev, Native.EPOLLIN, 0));
        } catch (IOException e) {
            closeFd(ev);
            closeFd(ep);
            throw new UncheckedIOException("cannot create an epoll instance", e);
        }
        this.epfd = ep;
        this.eventFd = ev;
        allocateEvents(maxEvents);
    }

    /** {@return a factory of handlers that start with room for 128 events per wait} */
    public static IoHandlerFactory newFactory() {
        return newFactory(128);
    }

    /**
     * {@return a factory of handlers that start with room for {@code maxEvents} events per wait (grown when a
     * wait fills it)}
     *
     * @param maxEvents the initial size of the event array, at least 1
     */
    public static IoHandlerFactory newFactory(int maxEvents) {
        if (maxEvents < 1) {
            throw new IllegalArgumentException("maxEvents: " + maxEvents + " (expected: >= 1)");
        }
        Epoll.ensureAvailability();
        return () -> new EpollIoHandler(maxEvents);
    }

    private void allocateEvents(int count) {
        maxEvents = count;
        events = ByteBuffer.allocateDirect(count * eventSize).order(ByteOrder.nativeOrder());
        eventsAddress = Native.bufferAddress(events);
    }

    @Override
    public int run(IoHandlerContext context) {
        int ready;
        if (context.canBlock()) {
            sleeping = true;
            try {
                if (context.canBlock()) {
                    long waitStart = System.nanoTime();
                    ready = epollWait(timeoutMillis(context.delayNanos()));
                    context.waited(System.nanoTime() - waitStart);
                } else {
                    ready = epollWait(0);
                }
            } finally {
                sleeping = false;
            }
        } else {
            ready = epollWait(0);
        }
        int processed = processReady(ready);
        if (ready == maxEvents && maxEvents < MAX_EVENTS_CAP) {
            allocateEvents(Math.min(MAX_EVENTS_CAP, maxEvents * 2)); // a full array: more may be waiting
        }
        return processed;
    }

    private static int timeoutMillis(long delayNanos) {
        if (delayNanos == Long.MAX_VALUE) {
            return -1; // until an event or a wake-up
        }
        // Round up: waking before the deadline would only spin through another wait.
        return (int) Math.min(Integer.MAX_VALUE, (delayNanos + 999_999) / 1_000_000);
    }

    private int epollWait(int timeoutMillis) {
        int n = Native.epollWait(epfd, eventsAddress, maxEvents, timeoutMillis);
        if (n < 0) {
            LOG.warn("epoll_wait failed", Errors.newException("epoll_wait", -n));
            return 0;
        }
        return n;
    }

    private int processReady(int ready) {
        ByteBuffer ev = events;
        Registration[] table = byFd;
        int processed = 0;
        for (int i = 0; i < ready; i++) {
            if (WARM_BATCH > 1 && (i & (WARM_BATCH - 1)) == 0 && ready > 1) {
                warmUp(i, Math.min(ready, i + WARM_BATCH));
            }
            int base = i * eventSize;
            int bits = ev.getInt(base);
            long data = ev.getLong(base + dataOffset);
            int fd = (int) data;
            if (fd == eventFd) {
                Native.eventFdDrain(eventFd);
                continue;
            }
            EpollIoHandle handle = liveHandle(data);
            if (handle == null) {
                continue; // closed earlier in this batch, maybe reused by a newer registration
            }
            processed++;
            try {
                handle.handle(table[fd], EpollIoOps.valueOf(bits));
            } catch (Throwable t) {
                // The throw left the readiness it was given unconsumed. A level-triggered channel would be
                // reported again by the very next epoll_wait and spin the loop; an edge-triggered one (the
                // default) would not be reported again until the peer sends more, stalling with input
                // unread. Neither is recoverable from here, so close it.
                LOG.warn("Handle " + handle + " threw; closing it", t);
                closeQuietly(handle);
            }
        }
        return processed;
    }

    /**
     * {@return the handle an event's data (registration id, descriptor) names, or null if that
     * registration ended since the event was reported}
     */
    private EpollIoHandle liveHandle(long data) {
        int fd = (int) data;
        int[] ids = idByFd;
        return fd < ids.length && ids[fd] == (int) (data >>> 32) ? handleByFd[fd] : null;
    }

    /**
     * Touches the objects of the handles of events {@code [from, to)} before any of them is handled.
     * With thousands of connections those objects are far from the CPU, and handling an event stalls
     * on each in turn; touched together, several handles' loads are in flight at once.
     */
    private void warmUp(int from, int to) {
        ByteBuffer ev = events;
        int x = 0;
        try {
            for (int i = from; i < to; i++) {
                EpollIoHandle handle = liveHandle(ev.getLong(i * eventSize + dataOffset));
                if (handle != null) { // null for the wake-up descriptor, which has no handle
                    x += handle.warmUp();
                }
            }
        } catch (RuntimeException e) {
            // Only an optimisation: a warm-up that fails must not keep the batch's events from being handled.
            LOG.debug("warm-up failed; handling the events anyway", e);
        }
        warmSink = x;
    }

    @Override
    public void wakeup() {
        if (SLEEPING.compareAndSet(this, true, false)) {
            Native.eventFdSignal(eventFd);
        }
    }

    @Override
    public IoRegistration register(IoHandle handle) {
        EpollIoHandle epollHandle = (EpollIoHandle) handle;
        if (destroyed) {
            throw new IllegalStateException("the epoll handler is destroyed");
        }
        int fd = epollHandle.fd();
        if (fd < 0) {
            throw new IllegalArgumentException("not an open descriptor: " + fd + " of " + handle);
        }
        if (fd >= byFd.length) {
            int length = Math.max(fd + 1, byFd.length * 2);
            byFd = Arrays.copyOf(byFd, length);
            idByFd = Arrays.copyOf(idByFd, length);
            handleByFd = Arrays.copyOf(handleByFd, length);
        }
        if (byFd[fd] != null) {
            throw new IllegalStateException("descriptor " + fd + " is registered already, by " + byFd[fd].handle);
        }
        int id = nextId++;
        if (nextId == 0) {
            nextId = 1; // 0 is the eventfd's
        }
        Registration r = new Registration(epollHandle, fd, id);
        byFd[fd] = r;
        idByFd[fd] = id;
        handleByFd[fd] = epollHandle;
        return r;
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return EpollIoHandle.class.isAssignableFrom(handleType);
    }

    @Override
    public void prepareToDestroy() {
        List<IoHandle> handles = new ArrayList<>();
        for (Registration r : byFd) {
            if (r != null) {
                handles.add(r.handle);
            }
        }
        for (IoHandle handle : handles) {
            closeQuietly(handle);
        }
    }

    @Override
    public void destroy() {
        if (!destroyed) {
            destroyed = true;
            closeFd(eventFd);
            closeFd(epfd);
        }
    }

    private static void closeFd(int fd) {
        if (fd >= 0) {
            Native.close(fd);
        }
    }

    private static void closeQuietly(IoHandle handle) {
        try {
            handle.close();
        } catch (Throwable t) {
            LOG.warn("Failed to close " + handle, t);
        }
    }

    /** A descriptor's registration; loop thread only. */
    private final class Registration implements IoRegistration {
        final EpollIoHandle handle;
        final int fd;
        final int id;
        /** In the epoll set (lazily added, see the class comment). */
        private boolean added;
        private boolean valid = true;
        private int events;

        Registration(EpollIoHandle handle, int fd, int id) {
            this.handle = handle;
            this.fd = fd;
            this.id = id;
        }

        @Override
        public void submit(IoOps interest) {
            if (!valid) {
                return;
            }
            int wanted = (int) interest.value();
            if ((wanted & (Native.EPOLLIN | Native.EPOLLOUT | Native.EPOLLRDHUP)) == 0) {
                if (!added) {
                    return;
                }
                wanted = Native.EPOLLET; // errors and hang-ups only, once each
            }
            if (added && wanted == events) {
                return;
            }
            int result = Native.epollCtl(epfd, added ? Native.EPOLL_CTL_MOD : Native.EPOLL_CTL_ADD, fd, wanted, id);
            if (result < 0) {
                throw new UncheckedIOException(Errors.newException("epoll_ctl", -result));
            }
            added = true;
            events = wanted;
        }

        @Override
        public boolean isValid() {
            return valid;
        }

        /** Removes the descriptor from epoll; call before closing it, so the number is free only once we let go. */
        @Override
        public boolean cancel() {
            if (!valid) {
                return false;
            }
            valid = false;
            if (added && !destroyed) {
                Native.epollCtl(epfd, Native.EPOLL_CTL_DEL, fd, 0, id); // fails only if already closed: fine
            }
            if (fd < byFd.length && byFd[fd] == this) {
                byFd[fd] = null;
                idByFd[fd] = 0;
                handleByFd[fd] = null;
            }
            return true;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T attachment() {
            return (T) this;
        }

        @Override
        public String toString() {
            return "EpollRegistration(fd " + fd + ", " + EpollIoOps.valueOf(events) + ")";
        }
    }
}
