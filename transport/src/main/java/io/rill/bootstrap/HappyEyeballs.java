package io.rill.bootstrap;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.rill.channel.Channel;
import io.rill.channel.EventLoop;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * One connect raced over several addresses (RFC 8305 §4-5). Everything runs on {@code loop}: the
 * attempts' channels live there, so their futures' listeners and the stagger timer need no locks.
 *
 * <pre>
 *   t=0      attempt 1 ──────────────┐
 *   t=delay  (or when 1 fails) attempt 2 ──┐   first connect wins; the rest are closed
 *   ...                                    ...
 * </pre>
 */
final class HappyEyeballs {

    private final ChannelFactory<Channel> channels;
    private final EventLoop loop;
    /** Addresses not yet tried, in the order RFC 8305 §4 interleaves them. */
    private final ArrayDeque<SocketAddress> untried;
    private final SocketAddress local;
    private final long delayNanos;
    private final Promise<Channel> result;
    /** Attempts started and not yet finished; the winner leaves before the others are closed. */
    private final List<Channel> inFlight = new ArrayList<>();
    /** One "address: cause" per failed attempt, in the order they failed. */
    private final List<String> failures = new ArrayList<>();
    private final List<Throwable> causes = new ArrayList<>();
    /** Starts the next attempt when the current one has run alone for {@code delayNanos}; null when none is due. */
    private ScheduledFuture<?> stagger;

    HappyEyeballs(ChannelFactory<Channel> channels, EventLoop loop, List<? extends SocketAddress> addresses,
            SocketAddress local, long delayNanos, Promise<Channel> result) {
        this.channels = channels;
        this.loop = loop;
        this.untried = new ArrayDeque<>(interleave(addresses));
        this.local = local;
        this.delayNanos = delayNanos;
        this.result = result;
    }

    /**
     * RFC 8305 §4: alternate the families, starting with the family of the first address (the
     * resolver's preference), each family keeping its own order.
     */
    static List<SocketAddress> interleave(List<? extends SocketAddress> addresses) {
        if (addresses.isEmpty()) {
            return List.of();
        }
        boolean firstIsV6 = isV6(addresses.get(0));
        ArrayDeque<SocketAddress> preferred = new ArrayDeque<>();
        ArrayDeque<SocketAddress> other = new ArrayDeque<>();
        for (SocketAddress a : addresses) {
            (isV6(a) == firstIsV6 ? preferred : other).add(a);
        }
        List<SocketAddress> out = new ArrayList<>(addresses.size());
        while (!preferred.isEmpty() || !other.isEmpty()) {
            if (!preferred.isEmpty()) {
                out.add(preferred.poll());
            }
            if (!other.isEmpty()) {
                out.add(other.poll());
            }
        }
        return out;
    }

    private static boolean isV6(SocketAddress a) {
        return a instanceof InetSocketAddress inet && inet.getAddress() instanceof Inet6Address;
    }

    void start() {
        // A caller that cancels the connect gets every attempt closed.
        result.addListener((Future<? extends Channel> f) -> {
            if (!f.isSuccess()) {
                loop.execute(this::closeAll);
            }
        });
        loop.execute(this::next);
    }

    private void next() {
        stagger = null;
        if (result.isDone() || untried.isEmpty()) {
            return;
        }
        SocketAddress remote = untried.poll();
        if (!untried.isEmpty()) {
            stagger = loop.schedule(this::next, delayNanos, TimeUnit.NANOSECONDS);
        }
        attempt(remote);
    }

    private void attempt(SocketAddress remote) {
        Channel channel;
        try {
            channel = channels.newChannel(loop);
        } catch (Throwable t) {
            failed(null, remote, t);
            return;
        }
        inFlight.add(channel);
        channel.register().addListener((Future<? extends Void> reg) -> {
            if (!reg.isSuccess()) {
                failed(channel, remote, reg.cause());
            } else if (result.isDone()) {
                failed(channel, remote, new IllegalStateException("connect already completed"));
            } else {
                channel.connect(remote, local).addListener((Future<? extends Void> c) -> {
                    if (c.isSuccess()) {
                        won(channel);
                    } else {
                        failed(channel, remote, c.cause());
                    }
                });
            }
        });
    }

    private void won(Channel channel) {
        inFlight.remove(channel);
        if (result.trySuccess(channel)) {
            closeAll();
        } else {
            channel.close();
        }
    }

    private void failed(Channel channel, SocketAddress remote, Throwable cause) {
        if (channel != null) {
            inFlight.remove(channel);
            channel.close();
        }
        failures.add(remote + ": " + cause);
        causes.add(cause);
        if (result.isDone()) {
            return;
        }
        if (!untried.isEmpty()) {
            // RFC 8305 §5: a failed attempt starts the next one at once, without waiting out the delay.
            if (stagger != null) {
                stagger.cancel(false);
            }
            next();
        } else if (inFlight.isEmpty()) {
            ConnectAttemptsFailedException e = new ConnectAttemptsFailedException(failures);
            causes.forEach(e::addSuppressed);
            result.tryFailure(e);
        }
    }

    private void closeAll() {
        if (stagger != null) {
            stagger.cancel(false);
            stagger = null;
        }
        untried.clear();
        // Closing fails an attempt's connect future, whose listener leaves inFlight: close a copy.
        List<Channel> losers = new ArrayList<>(inFlight);
        inFlight.clear();
        for (Channel c : losers) {
            c.close();
        }
    }
}
