package io.rill.channel.local;

import io.rill.channel.Channel;
import io.rill.channel.IoEventLoop;
import io.rill.channel.IoRegistration;
import io.rill.util.concurrent.Promise;

/**
 * A local channel's registration with its loop's {@link LocalIoHandler}, shared by both local
 * channel types. Confined to the channel's event loop.
 */
final class LocalRegistration {

    /** Non-null between a successful register and the matching cancel. */
    private IoRegistration registration;

    /**
     * Registers {@code handle} with the loop of {@code channel}; on success runs {@code onRegistered}
     * (still before {@code promise} completes, so the channel can be active by then) and completes
     * {@code promise}. Fails with {@link IllegalStateException} on a loop without a {@link LocalIoHandler}.
     */
    void register(Channel channel, LocalIoHandle handle, Promise<Void> promise, Runnable onRegistered) {
        if (!(channel.eventLoop() instanceof IoEventLoop loop) || !loop.isCompatible(handle.getClass())) {
            promise.tryFailure(new IllegalStateException(channel + " needs an event loop made with "
                    + "LocalIoHandler.newFactory(), not " + channel.eventLoop()));
            return;
        }
        loop.register(handle).addListener(f -> {
            if (!f.isSuccess()) {
                promise.tryFailure(f.cause());
                return;
            }
            registration = f.getNow();
            try {
                onRegistered.run();
            } catch (Throwable t) {
                cancel();
                promise.tryFailure(t);
                return;
            }
            promise.trySuccess(null);
        });
    }

    void cancel() {
        if (registration != null) {
            registration.cancel();
            registration = null;
        }
    }
}
