/**
 * Bandwidth limits: {@link io.rill.handler.traffic.ChannelTrafficShapingHandler} paces one
 * channel's reads and writes, {@link io.rill.handler.traffic.GlobalTrafficShapingHandler} (one
 * instance in every pipeline) paces all of them together. Reads are paced by suspending them,
 * writes by delaying them, with a bound on the writes waiting
 * ({@link io.rill.handler.traffic.PendingWritesFullException} past it);
 * {@link io.rill.handler.traffic.TrafficCounter} reports the rates.
 */
package io.rill.handler.traffic;
