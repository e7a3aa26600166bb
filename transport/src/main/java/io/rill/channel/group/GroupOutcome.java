package io.rill.channel.group;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.rill.channel.Channel;
import io.rill.util.concurrent.DefaultPromise;
import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * One future for an operation on many channels: succeeds when every channel's future did; else,
 * once all are done, fails with a {@link ChannelGroupException} listing each failure.
 */
final class GroupOutcome {

    private final String groupName;
    private final Promise<Void> promise;
    /** Channel futures added so far; fixed once {@link #seal()} ran. */
    private int attempted;
    /** Futures not done yet, plus one until {@link #seal()}, so an early finisher cannot complete the whole. */
    private final AtomicInteger outstanding = new AtomicInteger(1);
    /** Failures so far; guarded by itself. */
    private final List<Map.Entry<Channel, Throwable>> failures = new ArrayList<>();

    GroupOutcome(String groupName, EventExecutor executor) {
        this.groupName = groupName;
        this.promise = new DefaultPromise<>(executor);
    }

    /** Counts {@code future} of {@code channel} in; call before {@link #seal()}, from one thread. */
    void add(Channel channel, Future<Void> future) {
        attempted++;
        outstanding.incrementAndGet();
        future.addListener(f -> {
            if (!f.isSuccess()) {
                Throwable cause = f.cause() != null ? f.cause() : new IllegalStateException("cancelled");
                synchronized (failures) {
                    failures.add(new AbstractMap.SimpleImmutableEntry<>(channel, cause));
                }
            }
            done();
        });
    }

    /** No more futures will be added: the outcome may now complete. */
    Future<Void> seal() {
        done();
        return promise;
    }

    private void done() {
        if (outstanding.decrementAndGet() != 0) {
            return;
        }
        List<Map.Entry<Channel, Throwable>> failed;
        synchronized (failures) {
            failed = new ArrayList<>(failures);
        }
        if (failed.isEmpty()) {
            promise.trySuccess(null);
        } else {
            promise.tryFailure(new ChannelGroupException(groupName, attempted, failed));
        }
    }
}
