/**
 * {@link io.rill.handler.logging.LoggingHandler}: a debugging handler that logs every event and
 * operation passing it (with hex dumps of buffers, or only their size,
 * {@link io.rill.handler.logging.ByteBufFormat}) at one {@link io.rill.handler.logging.LogLevel},
 * through {@link java.lang.System.Logger}. Sharable; when its level is off, an event costs a
 * level check.
 */
package io.rill.handler.logging;
