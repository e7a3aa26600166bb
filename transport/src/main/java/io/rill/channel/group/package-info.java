/**
 * {@link io.rill.channel.group.ChannelGroup}: a set of channels that leave it when they close,
 * written to and closed together, with one aggregated future per operation.
 */
package io.rill.channel.group;
