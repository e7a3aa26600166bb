package io.rill.example;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.ChannelPipeline;
import io.rill.handler.codec.ByteToMessageDecoder;
import io.rill.handler.codec.LineBasedFrameDecoder;
import io.rill.handler.codec.compression.ZlibDecoder;
import io.rill.handler.codec.compression.ZlibEncoder;
import io.rill.handler.codec.compression.ZlibWrapper;
import io.rill.handler.codec.string.LineEncoder;
import io.rill.handler.codec.string.LineSeparator;
import io.rill.handler.codec.string.StringDecoder;
import io.rill.handler.ssl.SslContext;
import io.rill.handler.ssl.SslHandler;

/**
 * Several protocols on one port, told apart by the first bytes of a connection (seed 000's
 * port unification): a TLS record header gets TLS (a self-signed certificate) and then detection
 * again inside it; an HTTP request line gets the {@code http-hello} pipeline; a gzip stream (magic
 * {@code 1f 8b}) is inflated (and the answers deflated) and then detected again; anything else is
 * a line protocol that echoes each line back. Try {@code curl http://HOST:PORT/},
 * {@code curl -k https://HOST:PORT/}, {@code nc HOST PORT}, {@code openssl s_client -connect HOST:PORT},
 * or {@code (echo hi | gzip; sleep 1) | nc HOST PORT | gunzip}.
 */
final class PortUnificationServer implements Example {

    @Override
    public String name() {
        return "port-unification";
    }

    @Override
    public String description() {
        return "TLS, HTTP, gzip-wrapped and plain-text line echo on one port, told apart by the first bytes"
                + " (try: curl -k https://HOST:PORT/, nc HOST PORT)";
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        options.rejectUnknown();
        SslContext tls = ExampleTls.selfSignedServerContext(name());
        ServerRunner.run(options, name(), new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new ProtocolDetector(tls, true));
            }
        });
    }

    /**
     * Waits for enough bytes to tell the protocol, rewires the pipeline after itself and leaves;
     * the bytes it looked at are passed on to the new handlers.
     */
    static final class ProtocolDetector extends ByteToMessageDecoder {
        private static final int MAX_LINE = 8192;
        /** The context for TLS connections, or null once inside TLS (no TLS in TLS). */
        private final SslContext tls;
        private final boolean detectGzip;

        ProtocolDetector(SslContext tls, boolean detectGzip) {
            this.tls = tls;
            this.detectGzip = detectGzip;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            if (in.readableBytes() < 2) {
                return;
            }
            ChannelPipeline p = ctx.pipeline();
            int b0 = in.getUnsignedByte(in.readerIndex());
            int b1 = in.getUnsignedByte(in.readerIndex() + 1);
            if (tls != null && b0 == 0x16) { // a TLS handshake record, if the next bytes agree
                if (in.readableBytes() < 5) {
                    return;
                }
                if (SslHandler.isEncrypted(in)) {
                    p.addAfter(ctx.name(), "tls", tls.newHandler(ctx.alloc()));
                    p.addAfter("tls", "detector", new ProtocolDetector(null, detectGzip));
                    p.remove(this);
                    return;
                }
            }
            if (detectGzip && b0 == 0x1f && b1 == 0x8b) {
                p.addAfter(ctx.name(), "gzip-decoder", new ZlibDecoder(ZlibWrapper.GZIP));
                p.addAfter("gzip-decoder", "gzip-encoder", new ZlibEncoder(ZlibWrapper.GZIP));
                p.addAfter("gzip-encoder", "detector", new ProtocolDetector(null, false));
            } else if (looksLikeHttp(in)) {
                p.addAfter(ctx.name(), "http", HttpHelloServer.initializer(30, null));
            } else if (in.readableBytes() < 8 && in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n') < 0) {
                return; // too short to rule HTTP out yet
            } else {
                p.addAfter(ctx.name(), "lines", new LineBasedFrameDecoder(MAX_LINE));
                p.addAfter("lines", "text", new StringDecoder(StandardCharsets.UTF_8));
                p.addAfter("text", "line-encoder", new LineEncoder(LineSeparator.UNIX, StandardCharsets.UTF_8));
                p.addAfter("line-encoder", "echo", new LineEcho());
            }
            p.remove(this);
        }

        /** An upper-case token and a space: the start of a request line. */
        private static boolean looksLikeHttp(ByteBuf in) {
            int n = Math.min(in.readableBytes(), 8);
            for (int i = 0; i < n; i++) {
                int b = in.getUnsignedByte(in.readerIndex() + i);
                if (b == ' ') {
                    return i >= 3;
                }
                if (b < 'A' || b > 'Z') {
                    return false;
                }
            }
            return false;
        }
    }

    /** Answers each line with itself. */
    static final class LineEcho implements io.rill.channel.ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg);
        }
    }
}
