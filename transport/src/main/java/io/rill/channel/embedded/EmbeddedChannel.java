package io.rill.channel.embedded;

import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.AbstractChannel;
import io.rill.channel.ChannelConfig;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelId;
import io.rill.channel.ChannelOutboundBuffer;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.ManualTicker;
import io.rill.util.concurrent.Promise;

/**
 * A channel without a socket, for testing handlers: the test feeds messages in at the head
 * ({@link #writeInbound}) or the tail ({@link #writeOutbound}) and reads what came out of the
 * other end ({@link #readInbound()}, {@link #readOutbound()}).
 *
 * <p>Everything runs on the calling thread. Tasks handlers submit to the event loop wait until
 * {@link #runPendingTasks()} (every write and close here runs them); scheduled tasks fall due only
 * when the test moves time with {@link #advanceTimeBy} and then runs them, so timeouts are
 * tested deterministically and instantly. An exception that reaches the end of the pipeline is
 * recorded and rethrown by the next write or {@link #checkException()}.
 *
 * <p>Messages left in the queues are the test's to release: {@link #finishAndReleaseAll()} does it.
 */
public class EmbeddedChannel extends AbstractChannel {


    private enum State { OPEN, ACTIVE, CLOSED }

    private final EmbeddedEventLoop loop;
    private final ChannelConfig config;
    /** Messages that reached the tail of the pipeline, oldest first. */
    private final Queue<Object> inboundMessages = new ArrayDeque<>();
    /** Messages the head wrote out, oldest first. */
    private final Queue<Object> outboundMessages = new ArrayDeque<>();
    /** First exception that reached the tail since the last check; later ones are attached as suppressed. */
    private Throwable recordedException;
    private State state = State.OPEN;

    /**
     * A registered, active channel with {@code handlers} in its pipeline.
     *
     * @param handlers the handlers, added in order
     */
    public EmbeddedChannel(ChannelHandler... handlers) {
        this(EmbeddedChannelId.INSTANCE, true, handlers);
    }

    /**
     * A channel with the given id, registered and active unless {@code register} is false.
     *
     * @param id the channel's id
     * @param register false to leave the channel unregistered (and inactive) until {@link #register()}
     * @param handlers the handlers, added in order
     */
    public EmbeddedChannel(ChannelId id, boolean register, ChannelHandler... handlers) {
        this(new EmbeddedEventLoop(new ManualTicker()), id, register, handlers);
    }

    private EmbeddedChannel(EmbeddedEventLoop loop, ChannelId id, boolean register, ChannelHandler... handlers) {
        super(null, loop, id);
        this.loop = loop;
        this.config = new ChannelConfig(this);
        pipeline().addLast(handlers);
        if (register) {
            register();
            runPendingTasks();
            checkException();
        }
    }

    @Override
    public ChannelConfig config() {
        return config;
    }

    @Override
    public boolean isOpen() {
        return state != State.CLOSED;
    }

    @Override
    public boolean isActive() {
        return state == State.ACTIVE;
    }

    // ---------------------------------------------------------------- the test's side

    /**
     * {@return the messages that reached the end of the inbound direction} The test owns them and must release
     * them.
     */
    public Queue<Object> inboundMessages() {
        return inboundMessages;
    }

    /** {@return the messages written out by the head} The test owns them and must release them. */
    public Queue<Object> outboundMessages() {
        return outboundMessages;
    }

    /**
     * {@return the oldest inbound message, or null} The caller owns it and must release it.
     *
     * @param <T> the type the caller expects
     */
    @SuppressWarnings("unchecked")
    public <T> T readInbound() {
        return (T) ReferenceCountUtil.touch(inboundMessages.poll(), "read by the test from EmbeddedChannel.readInbound()");
    }

    /**
     * {@return the oldest outbound message, or null} The caller owns it and must release it.
     *
     * @param <T> the type the caller expects
     */
    @SuppressWarnings("unchecked")
    public <T> T readOutbound() {
        return (T) ReferenceCountUtil.touch(outboundMessages.poll(), "read by the test from EmbeddedChannel.readOutbound()");
    }

    /**
     * Fires each message through the pipeline as channelRead, then channelReadComplete; runs
     * pending tasks and rethrows a recorded exception. Returns true if inbound messages are waiting.
     *
     * @param msgs the messages; ownership passes to the pipeline
     * @return true if inbound messages are waiting
     */
    public boolean writeInbound(Object... msgs) {
        ensureOpen(msgs);
        for (Object m : msgs) {
            pipeline().fireChannelRead(m);
        }
        return flushInbound().checkAndReport(inboundMessages);
    }

    /**
     * Fires channelReadComplete and runs pending tasks.
     *
     * @return this channel
     */
    public EmbeddedChannel flushInbound() {
        pipeline().fireChannelReadComplete();
        runPendingTasks();
        return this;
    }

    /**
     * Writes each message from the tail and flushes; a failed write's cause is rethrown. Returns
     * true if outbound messages are waiting.
     *
     * @param msgs the messages; ownership passes to the pipeline
     * @return true if outbound messages are waiting
     */
    public boolean writeOutbound(Object... msgs) {
        ensureOpen(msgs);
        List<Future<Void>> futures = new ArrayList<>(msgs.length);
        for (Object m : msgs) {
            futures.add(write(m));
        }
        flushOutbound();
        for (Future<Void> f : futures) {
            if (f.isDone() && !f.isSuccess()) {
                record(f.cause());
            }
        }
        return checkAndReport(outboundMessages);
    }

    /**
     * Flushes from the tail and runs pending tasks.
     *
     * @return this channel
     */
    public EmbeddedChannel flushOutbound() {
        flush();
        runPendingTasks();
        return this;
    }

    private boolean checkAndReport(Queue<Object> queue) {
        checkException();
        return !queue.isEmpty();
    }

    /**
     * Closes the channel (running what the close causes) and says whether any message is left in
     * either queue, counting what the close itself produced; the messages stay for the test to
     * read. Rethrows an exception recorded and not yet checked.
     *
     * @return true if any message is left
     */
    public boolean finish() {
        return finish(false);
    }

    /**
     * Like {@link #finish()}, but releases every message left first, so a rethrown exception leaks nothing.
     *
     * @return true if any message was left
     */
    public boolean finishAndReleaseAll() {
        return finish(true);
    }

    private boolean finish(boolean release) {
        close();
        boolean leftOver = !inboundMessages.isEmpty() || !outboundMessages.isEmpty();
        if (release) {
            releaseEvery(inboundMessages);
            releaseEvery(outboundMessages);
        }
        checkException();
        return leftOver;
    }

    /**
     * Empties the inbound queue, releasing each message; true if it held any.
     *
     * @return true if the queue held a message
     */
    public boolean releaseInbound() {
        return releaseEvery(inboundMessages) > 0;
    }

    /**
     * Empties the outbound queue, releasing each message; true if it held any.
     *
     * @return true if the queue held a message
     */
    public boolean releaseOutbound() {
        return releaseEvery(outboundMessages) > 0;
    }

    /** Releases and removes every message of {@code queue}; returns how many there were. */
    private static int releaseEvery(Queue<Object> queue) {
        int count = 0;
        while (!queue.isEmpty()) {
            // safeRelease: one message released twice by a test must not leave the others in the queue.
            ReferenceCountUtil.safeRelease(queue.remove());
            count++;
        }
        return count;
    }

    /** Runs queued tasks and the scheduled tasks that are due. */
    public void runPendingTasks() {
        loop.runTasks();
        loop.runScheduledTasks();
        loop.runTasks();
    }

    /**
     * Runs the scheduled tasks that are due; returns nanoseconds until the next one, -1 if none.
     *
     * @return the delay, or -1
     */
    public long runScheduledPendingTasks() {
        long next = loop.runScheduledTasks();
        loop.runTasks();
        return next;
    }

    /**
     * Moves the loop's clock forward; due tasks run at the next {@link #runPendingTasks()}.
     *
     * @param amount how far to move
     * @param unit the unit of {@code amount}
     */
    public void advanceTimeBy(long amount, TimeUnit unit) {
        loop.manualTicker().advance(amount, unit);
    }

    /** Rethrows (unchanged, checked or not) the first exception that reached the tail since the last check. */
    public void checkException() {
        Throwable t = recordedException;
        if (t != null) {
            recordedException = null;
            throwUnchecked(t);
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> void throwUnchecked(Throwable t) throws E {
        throw (E) t;
    }

    private void record(Throwable cause) {
        if (recordedException == null) {
            recordedException = cause;
        } else if (recordedException != cause) {
            recordedException.addSuppressed(cause);
        }
    }

    private void ensureOpen(Object[] msgs) {
        if (!isOpen()) {
            for (Object m : msgs) {
                ReferenceCountUtil.safeRelease(m);
            }
            throwUnchecked(new ClosedChannelException());
        }
    }

    // ---------------------------------------------------------------- close runs the tasks it causes

    @Override
    public Future<Void> close() {
        return close(newPromise());
    }

    @Override
    public Future<Void> close(Promise<Void> promise) {
        runPendingTasks();
        Future<Void> f = super.close(promise);
        runPendingTasks();
        loop.cancelScheduled();
        return f;
    }

    @Override
    public Future<Void> disconnect() {
        return disconnect(newPromise());
    }

    @Override
    public Future<Void> disconnect(Promise<Void> promise) {
        Future<Void> f = super.disconnect(promise);
        runPendingTasks();
        return f;
    }

    // ---------------------------------------------------------------- transport

    @Override
    protected void onUnhandledInboundMessage(Object msg) {
        inboundMessages.add(msg);
    }

    @Override
    protected void onUnhandledInboundException(Throwable cause) {
        record(cause);
    }

    @Override
    protected SocketAddress localAddress0() {
        return isActive() ? EmbeddedSocketAddress.LOCAL : null;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return isActive() ? EmbeddedSocketAddress.REMOTE : null;
    }

    @Override
    protected void doRegister(Promise<Void> promise) {
        state = State.ACTIVE;
        promise.setSuccess(null);
    }

    @Override
    protected void doBind(SocketAddress localAddress) {
    }

    @Override
    protected boolean doConnect(SocketAddress remoteAddress, SocketAddress localAddress) {
        return true;
    }

    @Override
    protected void doDisconnect() {
        close();
    }

    @Override
    protected void doClose() {
        state = State.CLOSED;
    }

    @Override
    protected void doBeginRead() {
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) {
        for (Object msg; (msg = in.current()) != null; ) {
            // remove() releases once; the retain hands our reference to the queue.
            outboundMessages.add(ReferenceCountUtil.retain(msg));
            in.remove();
        }
    }

    @Override
    public String toString() {
        return "EmbeddedChannel(" + id().asShortText() + ", " + state + ')';
    }

}
