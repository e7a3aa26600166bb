/**
 * Making channels: {@link io.rill.bootstrap.ServerBootstrap} binds a listening channel and sets
 * up each connection it accepts; {@link io.rill.bootstrap.Bootstrap} connects a client channel
 * (resolving a host name off the event loop) or binds a datagram one.
 *
 * <pre>{@code
 * Channel server = new ServerBootstrap()
 *         .group(group)                          // one group accepts and serves; group(parent, child) splits them
 *         .channel(NioServerSocketChannel.class)  // or channelFactory(NioServerSocketChannel::new)
 *         .childHandler(initializer)
 *         .bind(8080).sync().getNow();           // the future's value is the channel
 * }</pre>
 *
 * <p>{@code bind} and {@code connect} return a {@code Future<Channel>}. A channel class is made
 * through a {@link io.rill.bootstrap.ChannelFactory} or {@link io.rill.bootstrap.ServerChannelFactory}
 * that takes the event loop, since a channel gets its loop in its constructor; options and
 * attributes are set on the channel before it registers, and a bad option fails here, not on the
 * first connection.
 */
package io.rill.bootstrap;
