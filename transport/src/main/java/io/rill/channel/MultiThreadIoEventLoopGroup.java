package io.rill.channel;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadFactory;

import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.MultiThreadEventExecutorGroup;

/**
 * The event loop group of every transport: {@code new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory())}.
 * Each loop gets its own {@link IoHandler} from the factory.
 */
public class MultiThreadIoEventLoopGroup extends MultiThreadEventExecutorGroup implements IoEventLoopGroup {

    /**
     * Twice as many loops as cores (see {@code rill.eventLoopThreads}).
     *
     * @param ioHandlerFactory the transport: makes one I/O handler per loop
     */
    public MultiThreadIoEventLoopGroup(IoHandlerFactory ioHandlerFactory) {
        this(0, ioHandlerFactory);
    }

    /**
     * A group of {@code nThreads} loops with a default thread factory.
     *
     * @param nThreads number of loops; 0 for the default
     * @param ioHandlerFactory the transport: makes one I/O handler per loop
     */
    public MultiThreadIoEventLoopGroup(int nThreads, IoHandlerFactory ioHandlerFactory) {
        this(nThreads, null, ioHandlerFactory);
    }

    /**
     * A group of {@code nThreads} loops whose threads {@code threadFactory} makes.
     *
     * @param nThreads number of loops; 0 for the default
     * @param threadFactory makes the loops' threads
     * @param ioHandlerFactory the transport: makes one I/O handler per loop
     */
    public MultiThreadIoEventLoopGroup(int nThreads, ThreadFactory threadFactory, IoHandlerFactory ioHandlerFactory) {
        super(nThreads, threadFactory, requireFactory(ioHandlerFactory));
    }

    private static IoHandlerFactory requireFactory(IoHandlerFactory factory) {
        if (factory == null) {
            throw new NullPointerException("ioHandlerFactory");
        }
        return factory;
    }

    @Override
    protected EventExecutor newChild(ThreadFactory threadFactory, Object... args) {
        return new SingleThreadIoEventLoop(this, threadFactory, (IoHandlerFactory) args[0]);
    }

    @Override
    public IoEventLoop next() {
        return (IoEventLoop) super.next();
    }

    /** {@return the figures of each loop, in the group's order} The list is fixed, the figures live. Any thread. */
    public List<EventLoopMetrics> metrics() {
        List<EventLoopMetrics> all = new ArrayList<>();
        for (EventExecutor loop : this) {
            if (loop instanceof SingleThreadIoEventLoop io) {
                all.add(io.metrics());
            }
        }
        return Collections.unmodifiableList(all);
    }
}
