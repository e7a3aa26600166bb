package io.rill.example;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.ByteToMessageDecoder;
import io.rill.handler.ssl.SslContext;
import io.rill.handler.ssl.SslContextBuilder;
import io.rill.handler.ssl.SslHandler;
import io.rill.handler.ssl.util.SelfSignedCertificate;

/**
 * One port, two protocols: looks at the first five bytes of each connection and echoes over TLS
 * when they are a TLS record header ({@link SslHandler#isEncrypted}), in the clear otherwise.
 */
final class PortUnificationServer implements Example {

    @Override
    public String name() {
        return "port-unification";
    }

    @Override
    public String description() {
        return "echo-server that speaks TLS or plaintext on one port, told apart by the first bytes"
                + " (try: nc HOST PORT, and openssl s_client -connect HOST:PORT)";
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        options.rejectUnknown();
        SelfSignedCertificate cert = new SelfSignedCertificate();
        Runtime.getRuntime().addShutdownHook(new Thread(cert::delete, name() + "-delete-certificate"));
        SslContext tls = SslContextBuilder.forServer(cert.key(), cert.certificate()).build();
        EchoServer.EchoHandler echo = new EchoServer.EchoHandler();
        ServerRunner.run(options, name(), new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new ProtocolDetector(tls, echo));
            }
        });
    }

    /** Waits for five bytes, then replaces itself with TLS + echo or with echo alone. */
    static final class ProtocolDetector extends ByteToMessageDecoder {
        private final SslContext tls;
        private final EchoServer.EchoHandler echo;

        ProtocolDetector(SslContext tls, EchoServer.EchoHandler echo) {
            this.tls = tls;
            this.echo = echo;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            if (in.readableBytes() < 5) {
                return;
            }
            if (SslHandler.isEncrypted(in)) {
                ctx.pipeline().addAfter(ctx.name(), "echo", echo);
                ctx.pipeline().addAfter(ctx.name(), "tls", tls.newHandler(ctx.alloc()));
            } else {
                ctx.pipeline().addAfter(ctx.name(), "echo", echo);
            }
            // Leaving the pipeline hands the bytes read so far to the handler now after it.
            ctx.pipeline().remove(this);
        }
    }
}
