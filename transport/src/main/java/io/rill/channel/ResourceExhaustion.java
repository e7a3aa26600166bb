package io.rill.channel;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jdk.jfr.FlightRecorder;

import io.rill.util.InternalLogger;

/**
 * Recognises failures that mean a resource ran out (an {@link OutOfMemoryError} from a buffer
 * allocation: usually direct memory) and reports channels closed for them: one warning line per
 * channel, and at most one line a second across channels, counting the ones it left out; a
 * server that runs out of memory under load would otherwise drown its own log.
 */
final class ResourceExhaustion {

    private static final InternalLogger LOG = InternalLogger.get(ResourceExhaustion.class);
    private static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** When the last line was logged (System.nanoTime), or Long.MIN_VALUE before the first. */
    private static final AtomicLong lastLogged = new AtomicLong(Long.MIN_VALUE);
    /** Channels closed for a resource since the last line. */
    private static final AtomicLong unlogged = new AtomicLong();

    private ResourceExhaustion() {
    }

    /**
     * Loads what reporting needs while files can still be opened: it is used when memory or
     * descriptors ran out, and loading a class then can fail for want of a descriptor. The
     * connection events are here too while JFR runs (the first connection to close may be one the
     * exhaustion closes); without JFR they are never loaded, since loading one loads all of JFR.
     */
    static void preload() {
        unlogged.get();
        new ResourceExhaustedEvent("preload", null).toString();
        if (FlightRecorder.isInitialized()) {
            ConnectionAcceptedEvent.load();
            ConnectionClosedEvent.load();
        }
    }

    /** Closes {@code channel} because a buffer allocation failed with {@code cause}. */
    static void closeFor(Channel channel, OutOfMemoryError cause) {
        if (channel instanceof AbstractChannel ch) {
            ch.closeForResource("out of memory for its buffers (" + cause.getMessage() + "); raise -Xmx or"
                    + " -XX:MaxDirectMemorySize, or lower the write buffer water marks and connection count", cause);
        }
    }

    static void log(Channel channel, String reason) {
        long now = System.nanoTime();
        long last = lastLogged.get();
        if (last != Long.MIN_VALUE && now - last < LOG_INTERVAL_NANOS || !lastLogged.compareAndSet(last, now)) {
            unlogged.incrementAndGet();
            return;
        }
        long more = unlogged.getAndSet(0);
        LOG.warn("Closing {}: {}{}", channel, reason,
                more == 0 ? "" : " (" + more + " more connection(s) closed for a resource since the last such line)");
    }
}
