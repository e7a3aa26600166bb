package io.rill.channel;

import java.util.concurrent.ThreadFactory;

import io.rill.util.InternalLogger;
import io.rill.util.RillProperties;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.SingleThreadEventExecutor;
import io.rill.util.concurrent.Ticker;

/**
 * The event loop of every transport: alternately lets its {@link IoHandler} wait for and process
 * I/O, then runs tasks for at most {@link RillProperties#EVENT_LOOP_TASK_QUANTUM_NANOS}, so a
 * flood of tasks cannot starve the sockets and busy sockets cannot starve the tasks.
 */
public class SingleThreadIoEventLoop extends SingleThreadEventExecutor implements IoEventLoop {

    private static final InternalLogger LOG = InternalLogger.get(SingleThreadIoEventLoop.class);

    private final IoHandler ioHandler;
    private final long taskQuantumNanos;
    private final EventLoopMetrics metrics = new EventLoopMetrics(this);
    private final IoHandlerContext context = new IoHandlerContext() {
        @Override
        public boolean canBlock() {
            return !hasTasks() && !isShuttingDown() && !hasScheduledTaskDue();
        }

        @Override
        public long delayNanos() {
            long deadline = nextScheduledTaskDeadlineNanos();
            return deadline == -1 ? Long.MAX_VALUE : Math.max(0, deadline - ticker().nanoTime());
        }

        @Override
        public void waited(long nanos) {
            waitedThisTurn += nanos;
        }
    };
    /** What the I/O handler reported waiting during the current turn. Loop thread only. */
    private long waitedThisTurn;

    /**
     * A loop whose I/O handler {@code ioHandlerFactory} makes, on the system clock and the default task bound.
     *
     * @param parent the owning group, or null
     * @param threadFactory makes the loop's thread
     * @param ioHandlerFactory the transport
     */
    public SingleThreadIoEventLoop(IoEventLoopGroup parent, ThreadFactory threadFactory,
                                   IoHandlerFactory ioHandlerFactory) {
        super(parent, threadFactory, Ticker.systemTicker(), RillProperties.MAX_PENDING_TASKS);
        this.ioHandler = ioHandlerFactory.newHandler();
        this.taskQuantumNanos = RillProperties.EVENT_LOOP_TASK_QUANTUM_NANOS;
    }

    @Override
    public IoEventLoopGroup parent() {
        return (IoEventLoopGroup) super.parent();
    }

    @Override
    public IoEventLoop next() {
        return this;
    }

    /** {@return this loop's figures: pending tasks, busy time, time in tasks, I/O events, its channels} Any thread. */
    public EventLoopMetrics metrics() {
        return metrics;
    }

    /**
     * Runs until shutdown, and survives whatever its I/O handler, its channels' callbacks or its
     * tasks throw, short of a {@link VirtualMachineError}: each is reported and the loop carries on
     * (a server must not stop serving because one handler, or the log backend, failed). If the
     * loop ends anyway, its channels are closed before it goes.
     */
    @Override
    protected void run() {
        try {
            ioHandler.initialize();
            long turnStart = System.nanoTime();
            for (;;) {
                try {
                    metrics.addIoEvents(ioHandler.run(context));
                } catch (Throwable t) {
                    survive("its I/O handler", t);
                }
                // Most turns of a busy server have no task: skip the pass and its clock reads.
                boolean work = hasTasks() || hasScheduledTasks();
                long tasksStart = work ? System.nanoTime() : 0;
                boolean ran = false;
                try {
                    ran = work && runAllTasks(taskQuantumNanos);
                } catch (Throwable t) {
                    survive("running tasks", t); // each task is guarded; this is the queue around them
                }
                long turnEnd = System.nanoTime();
                metrics.addTurn(turnEnd - turnStart - waitedThisTurn, ran ? turnEnd - tasksStart : 0);
                waitedThisTurn = 0;
                turnStart = turnEnd;
                if (isShuttingDown()) {
                    try {
                        ioHandler.prepareToDestroy();
                    } catch (Throwable t) {
                        survive("closing its handles", t);
                    }
                    if (confirmShutdown()) {
                        return;
                    }
                }
            }
        } catch (Throwable t) {
            closeHandlesAfter(t);
            throw t;
        }
    }

    /** Reports {@code t} and returns, so the loop carries on; a VirtualMachineError ends the loop. */
    private void survive(String where, Throwable t) {
        if (t instanceof VirtualMachineError error) {
            throw error;
        }
        LOG.warn("The event loop " + this + " caught what " + where + " threw; carrying on", t);
    }

    /** The loop ends because of {@code cause}: close every channel; the shutdown steps still run their close tasks. */
    private void closeHandlesAfter(Throwable cause) {
        try {
            ioHandler.prepareToDestroy();
        } catch (Throwable t) {
            if (t != cause) {
                cause.addSuppressed(t);
            }
        }
    }

    @Override
    protected void wakeup(boolean inEventLoop) {
        if (!inEventLoop) {
            ioHandler.wakeup();
        }
    }

    @Override
    protected void cleanup() {
        ioHandler.destroy();
    }

    @Override
    public Future<IoRegistration> register(IoHandle handle) {
        Promise<IoRegistration> promise = newPromise();
        if (inEventLoop()) {
            register0(handle, promise);
        } else {
            execute(() -> register0(handle, promise));
        }
        return promise;
    }

    private void register0(IoHandle handle, Promise<IoRegistration> promise) {
        if (isShuttingDown()) {
            promise.tryFailure(new IllegalStateException("event loop " + this + " is shutting down"));
            return;
        }
        try {
            promise.trySuccess(ioHandler.register(handle));
        } catch (Throwable t) {
            promise.tryFailure(t);
        }
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return ioHandler.isCompatible(handleType);
    }
}
