/**
 * What every socket transport shares: the channel interfaces ({@link io.rill.channel.socket.SocketChannel},
 * {@link io.rill.channel.socket.ServerSocketChannel}, {@link io.rill.channel.socket.DatagramChannel},
 * and {@link io.rill.channel.socket.DuplexChannel} for half closure), their configurations, the
 * {@link io.rill.channel.socket.DatagramPacket} message, and the events of half closure
 * ({@link io.rill.channel.socket.ChannelInputShutdownEvent} and friends, fired when
 * {@code ALLOW_HALF_CLOSURE} is on and the peer shuts its output).
 *
 * <p>Write code against these interfaces to keep it free of one transport.
 */
package io.rill.channel.socket;
