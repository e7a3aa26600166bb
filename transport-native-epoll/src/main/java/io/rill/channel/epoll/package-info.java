/**
 * The native epoll transport, Linux only: {@link io.rill.channel.epoll.EpollIoHandler} drives an
 * edge-triggered (or, per {@link io.rill.channel.epoll.EpollMode}, level-triggered) epoll instance
 * for an event loop, through a JNI library this module ships. Its channels are TCP
 * ({@link io.rill.channel.epoll.EpollSocketChannel}, {@link io.rill.channel.epoll.EpollServerSocketChannel}),
 * Unix-domain ({@link io.rill.channel.epoll.EpollDomainSocketChannel} with descriptor passing and
 * {@link io.rill.channel.epoll.PeerCredentials}) and UDP ({@link io.rill.channel.epoll.EpollDatagramChannel});
 * Linux socket options are in {@link io.rill.channel.epoll.EpollChannelOption}, {@code TCP_INFO} in
 * {@link io.rill.channel.epoll.TcpInfo}.
 *
 * <pre>{@code
 * boolean epoll = Epoll.isAvailable();   // Epoll.unavailabilityCause() says why not
 * EventLoopGroup group = new MultiThreadIoEventLoopGroup(
 *         epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
 * }</pre>
 *
 * <p>It behaves as the NIO transport does (the same socket tests run over both). On JDK 24 and
 * later, run with {@code --enable-native-access=io.rill.transport.epoll} on the module path, or
 * {@code ALL-UNNAMED} on the class path, or the JVM warns when the library loads.
 */
package io.rill.channel.epoll;
