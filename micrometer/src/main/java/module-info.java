/**
 * Rill's figures as Micrometer meters: {@link io.rill.micrometer.EventLoopMeters} for event loops
 * and their channels, {@link io.rill.micrometer.AllocatorMeters} for the pooled allocator.
 */
module io.rill.micrometer {
    requires transitive io.rill.transport;
    requires transitive micrometer.core;

    exports io.rill.micrometer;
}
