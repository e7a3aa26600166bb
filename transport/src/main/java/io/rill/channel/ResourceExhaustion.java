package io.rill.channel;

import java.util.concurrent.TimeUnit;

import jdk.jfr.FlightRecorder;

import io.rill.util.InternalLogger;
import io.rill.util.LogRateLimit;

/**
 * Recognises failures that mean a resource ran out (an {@link OutOfMemoryError} from a buffer
 * allocation: usually direct memory) and reports channels closed for them: one warning line per
 * channel, and at most one line a second across channels, counting the ones it left out; a
 * server that runs out of memory under load would otherwise drown its own log.
 */
final class ResourceExhaustion {

    private static final InternalLogger LOG = InternalLogger.get(ResourceExhaustion.class);
    private static final LogRateLimit LOG_LIMIT = new LogRateLimit(TimeUnit.SECONDS.toNanos(1));

    private ResourceExhaustion() {
    }

    /**
     * Loads what reporting needs while files can still be opened: it is used when memory or
     * descriptors ran out, and loading a class then can fail for want of a descriptor. The
     * connection events are here too while JFR runs (the first connection to close may be one the
     * exhaustion closes); without JFR they are never loaded, since loading one loads all of JFR.
     */
    static void preload() {
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
        long more = LOG_LIMIT.tryLog(System.nanoTime());
        if (more < 0) {
            return;
        }
        LOG.warn("Closing {}: {}{}", channel, reason,
                more == 0 ? "" : " (" + more + " more connection(s) closed for a resource since the last such line)");
    }
}
