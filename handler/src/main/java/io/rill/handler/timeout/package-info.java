/**
 * Time limits on a channel: {@link io.rill.handler.timeout.IdleStateHandler} fires an
 * {@link io.rill.handler.timeout.IdleStateEvent} when nothing was read, written, or either, for a
 * while (optionally counting a slow write's progress as activity);
 * {@link io.rill.handler.timeout.ReadTimeoutHandler} and
 * {@link io.rill.handler.timeout.WriteTimeoutHandler} raise
 * {@link io.rill.handler.timeout.ReadTimeoutException} or
 * {@link io.rill.handler.timeout.WriteTimeoutException} and close. HTTP servers need none of them
 * for requests: {@code HttpServerCodec} has its own timeouts.
 */
package io.rill.handler.timeout;
