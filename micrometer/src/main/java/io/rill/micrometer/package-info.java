/**
 * Rill's figures as Micrometer meters: {@link io.rill.micrometer.EventLoopMeters} binds the
 * getters of a loop group's {@code EventLoopMetrics} and {@code ChannelMetrics}, and
 * {@link io.rill.micrometer.AllocatorMeters} those of the pooled allocator, to a
 * {@code MeterRegistry}. Rill itself needs no metrics library; this module is optional.
 */
package io.rill.micrometer;
