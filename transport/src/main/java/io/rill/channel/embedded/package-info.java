/**
 * {@link io.rill.channel.embedded.EmbeddedChannel}: a channel with no socket, for testing
 * handlers. Messages go in with {@code writeInbound} and {@code writeOutbound} and come out with
 * {@code readInbound} and {@code readOutbound}; tasks and timers run when the test says
 * ({@code runPendingTasks}, {@code advanceTimeBy}); {@code finishAndReleaseAll} closes the channel
 * and releases what is left, so a leak-checking test stays clean.
 */
package io.rill.channel.embedded;
