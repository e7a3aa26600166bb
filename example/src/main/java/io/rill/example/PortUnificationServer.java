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
import io.rill.handler.codec.http.HttpServerTimeouts;
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
 *
 * <p><b>Bounded inflation.</b> A few megabytes of gzip can inflate to gigabytes of requests. The
 * gzip stream of a connection may inflate to at most {@code --max-inflated} bytes and at most
 * {@code --max-inflate-ratio} bytes per compressed byte; past either, the connection is closed and
 * the log says which limit it hit. Below them, inflating waits while the answers to what was
 * inflated wait for the peer to read them (each chunk's answers are flushed before the next is
 * inflated, so the outbound buffer sees them), so a peer that never reads costs at most the
 * outbound high water mark, one 64 KiB chunk of requests and their answers.
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

    static final ExampleOption MAX_INFLATED = ExampleOption.number("max-inflated", "BYTES",
            ZlibDecoder.DEFAULT_MAX_DECOMPRESSED_BYTES, 1024, Long.MAX_VALUE,
            "most bytes one connection's gzip stream may inflate to");
    static final ExampleOption MAX_INFLATE_RATIO = ExampleOption.number("max-inflate-ratio", "N",
            ZlibDecoder.DEFAULT_MAX_RATIO, 0, Integer.MAX_VALUE,
            "most inflated bytes per gzip byte, checked past the first 64 KiB; 0 for no limit");

    @Override
    public List<ExampleOption> options() {
        return List.of(MAX_INFLATED, MAX_INFLATE_RATIO);
    }

    @Override
    public List<String> limits() {
        return List.of("gzip: --max-inflated bytes and --max-inflate-ratio per connection; past either it is closed"
                        + " and the log names the limit; inflating waits while its answers wait for the peer",
                "text lines: 8 KiB; HTTP: as http-hello with its default time limits (request head 4 KiB line, 8 KiB headers;"
                        + " head within 20 s, body at 500 B/s, idle 60 s)",
                ServerRunner.READING_LIMIT);
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        SslContext tls = ExampleTls.selfSignedServerContext(name());
        ServerRunner.run(options, name(), initializer(tls, options.number(MAX_INFLATED),
                options.intValue(MAX_INFLATE_RATIO)));
    }

    /** The pipeline of one connection; shared with the tests. */
    static ChannelInitializer<Channel> initializer(SslContext tls, long maxInflated, int maxInflateRatio) {
        InflateLimits limits = new InflateLimits(maxInflated, maxInflateRatio);
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new ProtocolDetector(tls, limits));
            }
        };
    }

    /** The bounds of one connection's gzip stream; null in a detector means gzip is not detected. */
    record InflateLimits(long maxInflated, int maxRatio) {
    }

    /**
     * Waits for enough bytes to tell the protocol, rewires the pipeline after itself and leaves;
     * the bytes it looked at are passed on to the new handlers.
     */
    static final class ProtocolDetector extends ByteToMessageDecoder {
        private static final int MAX_LINE = 8192;
        /** The context for TLS connections, or null once inside TLS (no TLS in TLS). */
        private final SslContext tls;
        /** The bounds of a gzip stream, or null once inside gzip (no gzip in gzip). */
        private final InflateLimits gzip;

        ProtocolDetector(SslContext tls, InflateLimits gzip) {
            this.tls = tls;
            this.gzip = gzip;
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
                    p.addAfter("tls", "tls-failure-log", TlsFailureLog.forServer("port-unification"));
                    p.addAfter("tls", "detector", new ProtocolDetector(null, gzip));
                    p.remove(this);
                    return;
                }
            }
            if (gzip != null && b0 == 0x1f && b1 == 0x8b) {
                p.addAfter(ctx.name(), "gzip-decoder", new ZlibDecoder(ZlibWrapper.GZIP, gzip.maxInflated, gzip.maxRatio));
                p.addAfter("gzip-decoder", "gzip-limits", new InflateLimitReporter());
                p.addAfter("gzip-limits", "gzip-flush", new FlushEachChunk());
                p.addAfter("gzip-limits", "gzip-encoder", new ZlibEncoder(ZlibWrapper.GZIP));
                p.addAfter("gzip-encoder", "detector", new ProtocolDetector(null, null));
            } else if (looksLikeHttp(in)) {
                p.addAfter(ctx.name(), "http", HttpHelloServer.initializer(HttpServerTimeouts.DEFAULT, null));
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
