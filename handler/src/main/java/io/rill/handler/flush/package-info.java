/**
 * {@link io.rill.handler.flush.FlushConsolidationHandler}: lets many {@code flush} calls of one
 * read burst become one system call, for protocols whose handlers flush every answer
 * (pipelined requests, say).
 */
package io.rill.handler.flush;
