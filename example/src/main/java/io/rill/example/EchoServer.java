package io.rill.example;

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
        return "echoes every byte back to its sender (try: echo-client, or nc HOST PORT);"
                + " --tls: over TLS with a fresh self-signed certificate (try: openssl s_client -connect HOST:PORT)";
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        options.rejectUnknown("tls");
        if (!Boolean.parseBoolean(options.get("tls", "false"))) {
            ServerRunner.run(options, name(), new EchoHandler());
            return;
        }
        SslContext tls = ExampleTls.selfSignedServerContext(name());
        EchoHandler echo = new EchoHandler();
        ServerRunner.run(options, name(), new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(tls.newHandler(ch.alloc()), echo);
            }
        });
    }

    /** The buffer read is the buffer written: no copy; one flush per read burst, not per read. */
    @ChannelHandler.Sharable
    static final class EchoHandler implements ChannelHandler {
        private static final InternalLogger LOG = InternalLogger.get(EchoHandler.class);

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
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
