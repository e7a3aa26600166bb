package io.rill.example;

import java.util.List;

import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.ssl.SslContext;
import io.rill.util.InternalLogger;

/** Writes back every byte it receives; the smallest useful server, and Rill's main example. */
final class EchoServer implements Example {

    @Override
    public String name() {
        return "echo-server";
    }

    @Override
    public String description() {
        return "echoes every byte back to its sender (try: echo-client, or nc HOST PORT;"
                + " with --tls: openssl s_client -connect HOST:PORT)";
    }

    private static final ExampleOption TLS = ExampleOption.flag("tls",
            "speak TLS with a self-signed certificate made at start-up");

    @Override
    public List<ExampleOption> options() {
        return List.of(TLS);
    }

    @Override
    public List<String> limits() {
        return List.of(ServerRunner.READING_LIMIT);
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        if (!options.flag(TLS)) {
            ServerRunner.run(options, name(), new EchoHandler());
            return;
        }
        SslContext tls = ExampleTls.selfSignedServerContext(name());
        EchoHandler echo = new EchoHandler();
        ServerRunner.run(options, name(), new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(tls.newHandler(ch.alloc()), echo);
                TlsFailureLog.addBehindTls(ch, "echo-server");
            }
        });
    }

    /**
     * The buffer read is the buffer written: no copy; one flush per read burst, not per read; no
     * future per write (a write that fails reaches {@link #exceptionCaught}, which closes).
     */
    @ChannelHandler.Sharable
    static final class EchoHandler implements ChannelHandler {
        private static final InternalLogger LOG = InternalLogger.get(EchoHandler.class);

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg, ctx.voidPromise());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("Closing {} after an error", ctx.channel(), cause);
            ctx.close();
        }
    }
}
