/**
 * Channels, their pipelines of handlers, and the event loops that run them: the core of Rill.
 *
 * <h2>Where to start</h2>
 * A {@link io.rill.channel.Channel} is one connection (or listening socket, or datagram
 * socket). It is made with its {@link io.rill.channel.EventLoop} and never moves to another; a
 * {@link io.rill.channel.MultiThreadIoEventLoopGroup} owns the loops, and the
 * {@link io.rill.channel.IoHandlerFactory} it is given ({@code NioIoHandler.newFactory()},
 * {@code EpollIoHandler.newFactory()}, {@code LocalIoHandler.newFactory()}) decides the transport
 * of every channel on it. {@code io.rill.bootstrap} makes and configures channels; this package is
 * what they are made of.
 *
 * <p>Each channel has a {@link io.rill.channel.ChannelPipeline} of
 * {@link io.rill.channel.ChannelHandler}s. There is one handler interface: it has a default for
 * every inbound event ({@code channelActive}, {@code channelRead}, {@code channelReadComplete},
 * {@code channelWritabilityChanged}, {@code userEventTriggered}, {@code exceptionCaught}, ...)
 * and every outbound operation ({@code bind}, {@code connect}, {@code write}, {@code flush},
 * {@code read}, {@code close}, ...), and a handler overrides the ones it acts on. The pipeline
 * looks once per handler class at which methods are overridden and walks past a handler for the
 * others. A handler reaches its neighbours through its {@link io.rill.channel.ChannelHandlerContext}.
 * {@link io.rill.channel.ChannelInitializer} fills the pipeline of a new channel;
 * {@link io.rill.channel.SimpleChannelInboundHandler} receives one message type and releases it.
 *
 * <h2>Rules every handler can rely on</h2>
 * <ul>
 *   <li><b>One thread.</b> Every event and operation of a channel runs on its event loop, so a
 *       handler needs no locks. Operations called from another thread are handed to the loop. A
 *       handler that must block is added with an executor group of its own
 *       ({@code pipeline.addLast(group, handler)}), or hands the work to a
 *       {@link io.rill.channel.BlockingExecutor}.</li>
 *   <li><b>Futures.</b> Every outbound operation returns a {@code Future<Void>} (handlers receive
 *       a {@code Promise<Void>} to complete); there is no channel-specific future type.</li>
 *   <li><b>Write, then flush.</b> {@code write} queues a message in the channel's
 *       {@link io.rill.channel.ChannelOutboundBuffer} without a system call; {@code flush} sends what
 *       is queued. Past the high water mark of {@link io.rill.channel.WriteBufferWaterMark}
 *       {@code isWritable()} turns false and {@code channelWritabilityChanged} fires; below the low
 *       mark it turns true again.</li>
 *   <li><b>Reading.</b> With {@link io.rill.channel.ChannelOption#AUTO_READ} on (the default) the
 *       channel reads whenever data arrives; off, it reads once per {@code read()}. A channel a
 *       server accepted stops reading while it is not writable
 *       ({@link io.rill.channel.ChannelOption#PAUSE_READ_WHEN_UNWRITABLE}), so a peer that does not
 *       read its answers cannot make the server buffer without bound.</li>
 *   <li><b>Ownership.</b> A handler owns the message {@code channelRead} hands it: it passes it on or
 *       releases it. {@code write} takes ownership; the transport releases the message once written
 *       or failed.</li>
 *   <li><b>Options</b> ({@link io.rill.channel.ChannelOption}) are checked where they are set: a
 *       wrong type or a value out of range throws {@link io.rill.channel.InvalidChannelOptionException}
 *       naming both.</li>
 * </ul>
 *
 * <p>Transports live in the sub-packages ({@code .nio}, {@code .local}, {@code .embedded} for
 * tests, {@code io.rill.channel.epoll} in its own module); a transport is an
 * {@link io.rill.channel.IoHandler} plus the channel classes that register with it.
 */
package io.rill.channel;
