/**
 * The in-VM transport: channels that connect within one JVM without sockets, for tests and for
 * wiring components of one process together through the same pipelines as the network.
 *
 * <pre>{@code
 * EventLoopGroup group = new MultiThreadIoEventLoopGroup(LocalIoHandler.newFactory());
 * // ServerBootstrap: channelFactory(LocalServerChannel::new), bind(LocalAddress.ANY) or a name
 * // Bootstrap:       channelFactory(LocalChannel::new), connect(server.localAddress())
 * }</pre>
 *
 * <p>Local channels register only on loops made with {@link io.rill.channel.local.LocalIoHandler}
 * (an NIO loop refuses them, and local loops refuse NIO channels); a process using both keeps
 * one group of each.
 */
package io.rill.channel.local;
