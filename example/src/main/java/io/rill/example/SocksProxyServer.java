package io.rill.example;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.rill.bootstrap.Bootstrap;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.ChannelOption;
import io.rill.channel.ConnectTimeoutException;
import io.rill.handler.codec.socks.Socks5AuthMethod;
import io.rill.handler.codec.socks.Socks5CommandRequest;
import io.rill.handler.codec.socks.Socks5CommandRequestDecoder;
import io.rill.handler.codec.socks.Socks5CommandResponse;
import io.rill.handler.codec.socks.Socks5CommandStatus;
import io.rill.handler.codec.socks.Socks5CommandType;
import io.rill.handler.codec.socks.Socks5AddressType;
import io.rill.handler.codec.socks.Socks5InitialRequest;
import io.rill.handler.codec.socks.Socks5InitialRequestDecoder;
import io.rill.handler.codec.socks.Socks5InitialResponse;
import io.rill.handler.codec.socks.Socks5PasswordAuthRequest;
import io.rill.handler.codec.socks.Socks5PasswordAuthRequestDecoder;
import io.rill.handler.codec.socks.Socks5PasswordAuthResponse;
import io.rill.handler.codec.socks.SocksMessageEncoder;
import io.rill.handler.codec.socks.SocksUnsupportedAddressTypeException;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * A SOCKS5 proxy (RFC 1928) for the CONNECT command, with optional username/password
 * authentication (RFC 1929). Other commands get reply 0x07 (command not supported), an unknown
 * address type 0x08; a destination that refuses, cannot be resolved or does not answer within
 * {@code --connect-timeout-ms} gets 0x05, 0x04 or 0x04 (host unreachable), and the connection closes.
 *
 * <p>Relaying keeps memory bounded: each side reads only while the other can take its bytes (it
 * stops reading when the peer's outbound buffer passes its high water mark and starts again when
 * that drains), so a slow reader on either side slows the other instead of filling the heap.
 * A connection idle in both directions for {@code --idle-timeout} seconds closes, and a handshake
 * must finish within {@code --handshake-timeout-ms}.
 */
final class SocksProxyServer implements Example {

    private static final ExampleOption USERNAME = ExampleOption.text("username", "USER", null,
            "require username/password authentication with this user (and --password)");
    private static final ExampleOption PASSWORD = ExampleOption.text("password", "PASS", null,
            "the password --username needs");
    private static final ExampleOption CONNECT_TIMEOUT = ExampleOption.number("connect-timeout-ms", "MS", 10_000, 1,
            600_000, "how long connecting to a destination may take (then reply 0x04, host unreachable)");
    private static final ExampleOption IDLE_TIMEOUT = ExampleOption.number("idle-timeout", "SECONDS", 300, 1, 86_400,
            "close a connection that carried nothing either way for this long");
    private static final ExampleOption HANDSHAKE_TIMEOUT = ExampleOption.number("handshake-timeout-ms", "MS", 10_000,
            1, 600_000, "close a client that has not finished the SOCKS handshake by then");

    @Override
    public String name() {
        return "socks-proxy";
    }

    @Override
    public String description() {
        return "a SOCKS5 proxy for CONNECT, optionally with --username/--password"
                + " (try: curl --socks5-hostname HOST:PORT http://example.com/)";
    }

    @Override
    public List<ExampleOption> options() {
        return List.of(USERNAME, PASSWORD, CONNECT_TIMEOUT, IDLE_TIMEOUT, HANDSHAKE_TIMEOUT);
    }

    @Override
    public List<String> limits() {
        return List.of("handshake: --handshake-timeout-ms (10 s), each message at most 515 bytes",
                "relay: each side reads only while the other side's outbound buffer is under its high water mark"
                        + " (64 KiB)",
                "idle: --idle-timeout (300 s) without a byte either way");
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        String user = options.text(USERNAME);
        String pass = options.text(PASSWORD);
        if ((user == null) != (pass == null)) {
            throw new ExampleOptions.UsageException("--username and --password go together");
        }
        if (user != null) {
            new Socks5PasswordAuthRequest(user, pass); // 1..255 bytes each, or bad usage now
        }
        Settings settings = new Settings(user, pass, options.intValue(CONNECT_TIMEOUT), options.intValue(IDLE_TIMEOUT),
                options.intValue(HANDSHAKE_TIMEOUT), options);
        ServerRunner.run(options, name(), new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(SocksMessageEncoder.INSTANCE, new Socks5InitialRequestDecoder(),
                        new Handshake(settings));
            }
        });
    }

    private record Settings(String username, String password, int connectTimeoutMillis, int idleSeconds,
                            int handshakeTimeoutMillis, ExampleOptions options) {
    }

    /** One client's SOCKS5 handshake; replaced by a {@link Relay} once the destination is connected. */
    private static final class Handshake implements ChannelHandler {
        private final Settings settings;
        private ScheduledFuture<?> deadline;

        Handshake(Settings settings) {
            this.settings = settings;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            deadline = ctx.executor().schedule(() -> {
                ctx.close();
            }, settings.handshakeTimeoutMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            deadline.cancel(false);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Socks5InitialRequest greeting) {
                Socks5AuthMethod wanted = settings.username() != null ? Socks5AuthMethod.PASSWORD : Socks5AuthMethod.NO_AUTH;
                if (!greeting.methods().contains(wanted)) {
                    answerAndClose(ctx, new Socks5InitialResponse(Socks5AuthMethod.NO_ACCEPTABLE_METHODS));
                    return;
                }
                ctx.pipeline().addBefore(ctx.name(), null, settings.username() != null
                        ? new Socks5PasswordAuthRequestDecoder() : new Socks5CommandRequestDecoder());
                ctx.writeAndFlush(new Socks5InitialResponse(wanted));
            } else if (msg instanceof Socks5PasswordAuthRequest auth) {
                // Compared in constant time: how long a refusal takes says nothing about the password.
                boolean ok = MessageDigest.isEqual(bytes(auth.username()), bytes(settings.username()))
                        & MessageDigest.isEqual(bytes(auth.password()), bytes(settings.password()));
                if (!ok) {
                    answerAndClose(ctx, Socks5PasswordAuthResponse.FAILURE);
                    return;
                }
                ctx.pipeline().addBefore(ctx.name(), null, new Socks5CommandRequestDecoder());
                ctx.writeAndFlush(Socks5PasswordAuthResponse.SUCCESS);
            } else if (msg instanceof Socks5CommandRequest request) {
                if (!request.type().equals(Socks5CommandType.CONNECT)) {
                    answerAndClose(ctx, new Socks5CommandResponse(Socks5CommandStatus.COMMAND_UNSUPPORTED));
                    return;
                }
                connect(ctx, request);
            } else {
                ReferenceCountUtil.release(msg); // bytes sent before the request was answered: out of protocol
            }
        }

        private static byte[] bytes(String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }

        private void connect(ChannelHandlerContext ctx, Socks5CommandRequest request) {
            Channel inbound = ctx.channel();
            inbound.config().setAutoRead(false); // nothing more from the client until the destination is there
            IdleTunnel idle = new IdleTunnel(TimeUnit.SECONDS.toNanos(settings.idleSeconds()));
            new Bootstrap().group(inbound.eventLoop()).channelFactory(Transports.clientChannel(settings.options()))
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, settings.connectTimeoutMillis())
                    .option(ChannelOption.AUTO_READ, false)
                    .handler(new Relay(inbound, idle))
                    .connect(request.host(), request.port())
                    .addListener(f -> {
                        if (!f.isSuccess()) {
                            answerAndClose(ctx, new Socks5CommandResponse(statusFor(f.cause())));
                            return;
                        }
                        Channel outbound = (Channel) f.getNow();
                        if (!inbound.isActive()) {
                            outbound.close();
                            return;
                        }
                        InetSocketAddress bound = (InetSocketAddress) outbound.localAddress();
                        String host = bound.getAddress().getHostAddress();
                        int scope = host.indexOf('%');
                        host = scope < 0 ? host : host.substring(0, scope);
                        ctx.writeAndFlush(new Socks5CommandResponse(Socks5CommandStatus.SUCCESS,
                                Socks5AddressType.of(host), host, bound.getPort()));
                        ctx.pipeline().remove(SocksMessageEncoder.INSTANCE);
                        ctx.pipeline().replace(this, null, new Relay(outbound, idle));
                        idle.start(inbound, outbound);
                        inbound.config().setAutoRead(true);
                        outbound.config().setAutoRead(true);
                    });
        }

        private static Socks5CommandStatus statusFor(Throwable cause) {
            if (cause instanceof UnknownHostException || cause instanceof ConnectTimeoutException
                    || cause instanceof NoRouteToHostException) {
                return Socks5CommandStatus.HOST_UNREACHABLE;
            }
            if (cause instanceof ConnectException) {
                return Socks5CommandStatus.CONNECTION_REFUSED;
            }
            return Socks5CommandStatus.FAILURE;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof SocksUnsupportedAddressTypeException) {
                answerAndClose(ctx, new Socks5CommandResponse(Socks5CommandStatus.ADDRESS_UNSUPPORTED));
            } else {
                ctx.close();
            }
        }

        private static void answerAndClose(ChannelHandlerContext ctx, Object answer) {
            ctx.writeAndFlush(answer).addListener(f -> ctx.close());
        }
    }

    /**
     * Copies one side's bytes to the other. Reads on this side stop while the other side cannot
     * take more and resume when it drains, so at most about one high water mark waits per direction.
     */
    private static final class Relay implements ChannelHandler {
        private final Channel peer;
        private final IdleTunnel idle;

        Relay(Channel peer, IdleTunnel idle) {
            this.peer = peer;
            this.idle = idle;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            peer.write(msg, peer.voidPromise());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            idle.carried();
            peer.flush();
            if (!peer.isWritable()) {
                ctx.channel().config().setAutoRead(false);
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            // This side drained: the peer, which feeds it, may read again.
            if (ctx.channel().isWritable()) {
                peer.config().setAutoRead(true);
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            // What the peer was still sent goes out before it closes.
            if (peer.isActive()) {
                peer.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> peer.close());
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
            peer.close();
        }
    }

    /**
     * Closes both sides of a tunnel that carried nothing either way for the idle timeout. Each read
     * burst on either side only stamps the time; one timer per tunnel compares. An idle handler
     * that watched writes as well would cost a promise per relayed write, and every byte written to
     * one side was first read from the other, so the reads alone tell.
     */
    private static final class IdleTunnel {
        private final long timeoutNanos;
        private long lastCarried;
        private Channel inbound;
        private Channel outbound;
        private ScheduledFuture<?> pending;

        IdleTunnel(long timeoutNanos) {
            this.timeoutNanos = timeoutNanos;
        }

        /** Both sides share the client's event loop, where every call here runs. */
        void start(Channel inbound, Channel outbound) {
            this.inbound = inbound;
            this.outbound = outbound;
            lastCarried = System.nanoTime();
            pending = inbound.eventLoop().schedule(this::check, timeoutNanos, TimeUnit.NANOSECONDS);
            // A tunnel that ends takes its check with it, rather than leaving it queued for the timeout.
            inbound.closeFuture().addListener(f -> pending.cancel(false));
        }

        void carried() {
            lastCarried = System.nanoTime();
        }

        private void check() {
            long left = timeoutNanos - (System.nanoTime() - lastCarried);
            if (left <= 0) {
                inbound.close();
                outbound.close();
            } else if (inbound.isActive()) {
                pending = inbound.eventLoop().schedule(this::check, left, TimeUnit.NANOSECONDS);
            }
        }
    }
}
