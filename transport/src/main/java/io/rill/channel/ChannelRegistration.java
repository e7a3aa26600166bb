package io.rill.channel;

import io.rill.util.InternalLogger;
import io.rill.util.concurrent.DefaultPromise;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * A channel's registration with its event loop and the life-cycle events around it, each fired
 * once and in order: {@code channelRegistered} before {@code channelActive}, {@code channelActive}
 * at most once however many paths see the channel become active, {@code channelInactive} once
 * after it and never without it, {@code channelUnregistered} after that. Kept out of
 * {@link AbstractChannel} so its operations read without this bookkeeping. One per channel;
 * everything but {@link #isRegistered()} is confined to the channel's event loop.
 */
final class ChannelRegistration {

    /** Logged under the channel's name: this is the channel's own life cycle. */
    private static final InternalLogger LOG = InternalLogger.get(AbstractChannel.class);

    private final AbstractChannel channel;
    private final EventLoop eventLoop;
    private final LinkedPipeline pipeline;
    /** True between a successful register and the matching deregister. */
    private volatile boolean registered;
    /** False until the first registration, which alone fires channelActive for an already active channel. */
    private boolean everRegistered;
    /** channelActive fired; set once, so it never fires twice, and channelInactive is owed. */
    private boolean activeFired;
    /** channelInactive fired. */
    private boolean inactiveFired;

    ChannelRegistration(AbstractChannel channel, EventLoop eventLoop, LinkedPipeline pipeline) {
        this.channel = channel;
        this.eventLoop = eventLoop;
        this.pipeline = pipeline;
    }

    boolean isRegistered() {
        return registered;
    }

    boolean wasEverRegistered() {
        return everRegistered;
    }

    void register(Promise<Void> promise) {
        if (registered) {
            promise.tryFailure(new IllegalStateException(channel + " is registered already"));
            return;
        }
        if (!channel.ensureOpen(promise, "register")) {
            return;
        }
        Promise<Void> done = new DefaultPromise<>(eventLoop);
        done.addListener(f -> registrationDone(f, promise));
        try {
            channel.doRegister(done);
        } catch (Throwable t) {
            done.tryFailure(t);
        }
    }

    private void registrationDone(Future<? extends Void> outcome, Promise<Void> promise) {
        if (!outcome.isSuccess()) {
            promise.tryFailure(outcome.cause());
            return;
        }
        registered = true;
        boolean first = !everRegistered;
        everRegistered = true;
        // Events before the promise: its listeners (a bootstrap's bind or connect) may make the
        // channel active at once, and channelActive must not overtake channelRegistered.
        pipeline.fireChannelRegistered();
        if (first) {
            ChannelLifecycle.registered(channel);
            fireActiveOnce(); // an accepted channel is active before it is ever registered
        } else if (channel.isActive() && channel.config().isReadingAutomatically()) {
            channel.beginReadNow();
        }
        promise.trySuccess(null);
    }

    /** Fires channelActive if the channel is active and it has not fired yet. */
    void fireActiveOnce() {
        if (!activeFired && channel.isActive()) {
            activeFired = true;
            pipeline.fireChannelActive();
        }
    }

    /** Fires channelInactive once, and only after channelActive did. */
    void fireInactiveOnce() {
        if (activeFired && !inactiveFired) {
            inactiveFired = true;
            pipeline.fireChannelInactive();
        }
    }

    /** Runs as a task of its own, so the operation that led here completed first. */
    void deregister(Promise<Void> promise, boolean fireInactive) {
        try {
            if (registered) {
                channel.doDeregister();
            }
        } catch (Throwable t) {
            LOG.warn("Deregistering " + channel + " failed", t);
        }
        if (fireInactive) {
            fireInactiveOnce();
        }
        if (registered) {
            registered = false;
            pipeline.fireChannelUnregistered();
        }
        if (!channel.isOpen()) {
            pipeline.destroy();
        }
        promise.trySuccess(null);
    }
}
