package io.rill.channel;

import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;

import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * A connect the transport started but has not finished yet (a non-blocking connect waiting for
 * the socket to become connectable), with its timeout. Confined to the channel's event loop.
 */
final class ConnectState {

    private final AbstractChannel channel;
    /** The caller's promise; null when no connect is pending. */
    private Promise<Void> promise;
    /** Where we are connecting to, for error messages; null when none is pending. */
    private SocketAddress remoteAddress;
    /** Fails the connect when CONNECT_TIMEOUT_MILLIS elapse; null without a limit or when none is pending. */
    private ScheduledFuture<?> timeout;

    ConnectState(AbstractChannel channel) {
        this.channel = channel;
    }

    boolean isPending() {
        return promise != null;
    }

    SocketAddress remoteAddress() {
        return remoteAddress;
    }

    /** Remembers a connect in flight, arms its timeout and reacts to cancellation by the caller. */
    void start(Promise<Void> connectPromise, SocketAddress remote, int timeoutMillis) {
        this.promise = connectPromise;
        this.remoteAddress = remote;
        if (timeoutMillis > 0) {
            timeout = channel.eventLoop().schedule(() -> {
                Promise<Void> p = promise;
                if (p != null && p.tryFailure(new ConnectTimeoutException(
                        "connection timed out after " + timeoutMillis + " ms: " + remote))) {
                    channel.close(channel.voidPromise());
                }
            }, timeoutMillis, TimeUnit.MILLISECONDS);
        }
        if (!VoidChannelPromise.isVoid(connectPromise)) {
            connectPromise.addListener((Future<? extends Void> f) -> {
                if (f.isCancelled()) {
                    clear();
                    channel.close(channel.voidPromise());
                }
            });
        }
    }

    /** Ends the pending connect and returns its promise (null if none was pending). */
    Promise<Void> finish() {
        Promise<Void> p = promise;
        clear();
        return p;
    }

    private void clear() {
        if (timeout != null) {
            timeout.cancel(false);
            timeout = null;
        }
        promise = null;
        remoteAddress = null;
    }
}
