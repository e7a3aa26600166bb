/**
 * The NIO transport, on every platform: {@link io.rill.channel.nio.NioIoHandler} drives a JDK
 * {@link java.nio.channels.Selector} for an event loop, and the channels register with it: TCP
 * ({@link io.rill.channel.nio.NioSocketChannel}, {@link io.rill.channel.nio.NioServerSocketChannel}),
 * Unix-domain sockets ({@link io.rill.channel.nio.NioDomainSocketChannel},
 * {@link io.rill.channel.nio.NioServerDomainSocketChannel}, addressed by
 * {@link java.net.UnixDomainSocketAddress}) and UDP ({@link io.rill.channel.nio.NioDatagramChannel},
 * multicast included).
 *
 * <pre>{@code
 * EventLoopGroup group = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
 * new ServerBootstrap().group(group).channel(NioServerSocketChannel.class) ...
 * }</pre>
 *
 * <p>These channels register only on loops made with {@code NioIoHandler.newFactory()}; the
 * constructor of one given another transport's loop throws and names the factory to use.
 */
package io.rill.channel.nio;
