package io.rill.channel.internal;

import java.util.function.LongFunction;

import io.rill.channel.ChannelConfig;
import io.rill.channel.EventLoop;
import io.rill.channel.IoEventLoop;
import io.rill.channel.IoHandle;
import io.rill.channel.IoOps;
import io.rill.channel.IoRegistration;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * What a channel of a readiness-based transport (NIO's selector, epoll) asks its I/O handler for:
 * the registration of its handle, the set of operations it wants to be told about, and whether a
 * {@code read()} waits to be served. One per channel, confined to its event loop.
 *
 * <p>The interest set lives here, not only in the I/O handler's registration, so that operations
 * asked for before the registration completed (a connect started right after register) are
 * submitted with it. A transport may ask for bits that go with every submission (epoll's
 * {@code EPOLLET} in edge-triggered mode); they are not part of the interest set itself.
 *
 * @param <O> the transport's operation set, whose every value {@code valueOf} returns
 */
public final class IoInterest<O extends IoOps> {

    private final IoHandle handle;
    /** The transport's operation set for a bit set; its sets are made up front, so this allocates nothing. */
    private final LongFunction<O> valueOf;
    /** The I/O handler's registration; null before {@link #register} completes and after {@link #deregister}. */
    private IoRegistration registration;
    /** The operations wanted; submitted whenever it changes and at registration. */
    private O interest;
    /** Bits added to every submission, never to {@link #interest}. */
    private long alwaysSubmitted;
    /** A read() was asked for and not served yet; without it and AUTO_READ, input interest is dropped. */
    private boolean readPending;

    /**
     * The interest of a channel whose I/O handler watches {@code handle}; nothing is wanted yet.
     *
     * @param handle what the I/O handler watches for the channel
     * @param valueOf the transport's operation set for a bit set
     */
    public IoInterest(IoHandle handle, LongFunction<O> valueOf) {
        this.handle = handle;
        this.valueOf = valueOf;
        this.interest = valueOf.apply(0);
    }

    /**
     * Fails unless {@code loop} runs an I/O handler that takes {@code handleType}.
     *
     * @param loop the loop a channel is made with
     * @param handleType the handles of the transport
     * @param transport the transport's name, for the error message ("NIO")
     * @param handler the simple name of the transport's I/O handler class, for the error message
     * @return {@code loop}
     * @throws IllegalArgumentException if {@code loop} runs another transport
     */
    public static EventLoop requireLoop(EventLoop loop, Class<? extends IoHandle> handleType, String transport,
            String handler) {
        if (loop == null) {
            throw new NullPointerException("eventLoop");
        }
        if (!(loop instanceof IoEventLoop ioLoop) || !ioLoop.isCompatible(handleType)) {
            throw new IllegalArgumentException(transport + " channels need an event loop driven by " + handler
                    + ", not " + loop + "; create the group with new MultiThreadIoEventLoopGroup(" + handler
                    + ".newFactory())");
        }
        return loop;
    }

    /**
     * Registers the handle with {@code loop}'s I/O handler, then submits what is wanted already
     * (if anything) and completes {@code promise}.
     *
     * @param loop the channel's loop, which runs an I/O handler
     * @param promise completed with the registration's outcome
     */
    public void register(EventLoop loop, Promise<Void> promise) {
        ((IoEventLoop) loop).register(handle).addListener((Future<? extends IoRegistration> f) -> {
            if (!f.isSuccess()) {
                promise.tryFailure(f.cause());
                return;
            }
            registration = f.getNow();
            if (interest.value() != 0) {
                submit();
            }
            promise.trySuccess(null);
        });
    }

    /** Cancels the registration, if there is one. */
    public void deregister() {
        IoRegistration r = registration;
        registration = null;
        if (r != null) {
            r.cancel();
        }
    }

    /**
     * Adds {@code ops} to the interest set.
     *
     * @param ops the operations to add
     */
    public void add(O ops) {
        set(interest.value() | ops.value());
    }

    /**
     * Removes {@code ops} from the interest set.
     *
     * @param ops the operations to remove
     */
    public void remove(O ops) {
        set(interest.value() & ~ops.value());
    }

    /**
     * {@return true if the interest set holds all of {@code ops}}
     *
     * @param ops the operations to test
     */
    public boolean contains(O ops) {
        return (interest.value() & ops.value()) == ops.value();
    }

    /** {@return the operations wanted} */
    public O interest() {
        return interest;
    }

    private void set(long bits) {
        if (bits != interest.value()) {
            interest = valueOf.apply(bits);
            submit();
        }
    }

    /**
     * Makes {@code bits} go with every later submission and resubmits (epoll's {@code EPOLLET} when
     * the mode changes).
     *
     * @param bits the transport's bits to add to every submission; none for 0
     */
    public void alwaysSubmit(long bits) {
        alwaysSubmitted = bits;
        submit();
    }

    /** Hands the interest set to the I/O handler, if registered. */
    private void submit() {
        IoRegistration r = registration;
        if (r != null && r.isValid()) {
            r.submit(alwaysSubmitted == 0 ? interest : valueOf.apply(interest.value() | alwaysSubmitted));
        }
    }

    /** {@return true if a {@code read()} was asked for and not yet served} */
    public boolean isReadPending() {
        return readPending;
    }

    /**
     * Marks a {@code read()} as asked for (true) or as being served now (false).
     *
     * @param pending true when a read is asked for
     */
    public void setReadPending(boolean pending) {
        readPending = pending;
    }

    /**
     * A {@code read()}: marks it pending and adds the input operations.
     *
     * @param readOps the operations that mean input
     */
    public void beginRead(O readOps) {
        readPending = true;
        add(readOps);
    }

    /**
     * Stops watching input unless a {@code read()} is pending or the channel reads automatically, so
     * a channel with AUTO_READ off is not woken for input it did not ask for.
     *
     * @param config the channel's config
     * @param readOps the operations that mean input
     */
    public void dropReadUnlessWanted(ChannelConfig config, O readOps) {
        if (!readPending && !config.isReadingAutomatically()) {
            remove(readOps);
        }
    }
}
