package io.rill.example;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.http.HttpDecoderConfig;
import io.rill.handler.codec.http.HttpServerCodec;
import io.rill.handler.codec.http.HttpServerTimeouts;
import io.rill.handler.codec.http2.CleartextHttpProtocolDetector;
import io.rill.handler.codec.http2.Http2DataFrame;
import io.rill.handler.codec.http2.Http2FrameCodec;
import io.rill.handler.codec.http2.Http2Headers;
import io.rill.handler.codec.http2.Http2HeadersFrame;
import io.rill.handler.codec.http2.Http2ResetFrame;
import io.rill.handler.codec.http2.Http2ServerUpgradeHandler;
import io.rill.handler.codec.http2.HttpAlpnNegotiationHandler;
import io.rill.handler.codec.http2.Http2WindowUpdateFrame;
import io.rill.handler.ssl.SslContext;
import io.rill.util.AsciiString;
import io.rill.util.InternalLogger;

/**
 * HTTP/2 hello world: {@code GET} (or {@code HEAD}) of any path answers {@code Hello, World!};
 * {@code POST /echo} echoes the body as it arrives, with flow control end to end: the client's
 * window on a stream reopens only as the echo of what it sent leaves, so a body of any size costs
 * the server at most a window of memory. One port speaks HTTP/2 with prior knowledge, HTTP/2 after
 * {@code Upgrade: h2c} (the upgrade request, body included, becomes stream 1) and HTTP/1.1 (the
 * {@code http-hello} handler); with {@code --tls}, h2 and http/1.1 by ALPN. Try
 * {@code curl --http2-prior-knowledge http://127.0.0.1:8080/}, {@code curl --http2 ...} or, with
 * {@code --tls}, {@code curl -k https://127.0.0.1:8080/}.
 *
 * <p>The fixed answer is built once a second (for its {@code date}) and shared by every response,
 * as {@code http-hello} does over HTTP/1.1: its fields are one {@link Http2Headers} (per second) that nothing modifies after it is built (the codec
 * only reads the fields it sends), and its body one {@link Unpooled#constantBuffer constant buffer}
 * (the codec reads it without moving its indices, and releasing it does nothing). Per request the
 * server then makes only the frames, their write futures and what the codec itself needs, under
 * 300 bytes in all. A handler that builds its answer per request costs a little more; one that does
 * not look at a write's outcome saves the future by passing {@code ctx.voidPromise()}, but a failed
 * write (on a stream the client has reset meanwhile, say) then reaches {@code exceptionCaught}.
 */
final class Http2HelloServer implements Example {

    @Override
    public String name() {
        return "http2-hello";
    }

    @Override
    public String description() {
        return "HTTP/2 hello world and POST /echo; h2c by prior knowledge or upgrade, HTTP/1.1, --tls for h2 by ALPN"
                + " (try: curl --http2-prior-knowledge http://HOST:PORT/)";
    }

    @Override
    public List<String> limits() {
        return List.of("HTTP/1.1 (and the h2c upgrade request): as http-hello",
                "at most 100 concurrent streams per connection (SETTINGS_MAX_CONCURRENT_STREAMS)",
                "request header list: 8 KiB (SETTINGS_MAX_HEADER_LIST_SIZE)",
                "POST /echo: any size, at most a 64 KiB stream window held per stream (flow control)",
                "HTTP/2 timeouts: a connection without streams closes after --idle-timeout (GOAWAY NO_ERROR);"
                        + " request content at 500 B/s without a stall of --body-timeout (408 and RST_STREAM beyond);"
                        + " a field block whole within --header-timeout",
                ServerRunner.READING_LIMIT);
    }

    private static final ExampleOption TLS = ExampleOption.flag("tls",
            "TLS with a self-signed certificate made at start-up; h2 or http/1.1 by ALPN (try curl -k)");

    @Override
    public List<ExampleOption> options() {
        return List.of(HttpTimeoutOptions.HEADER_TIMEOUT, HttpTimeoutOptions.BODY_TIMEOUT,
                HttpTimeoutOptions.IDLE_TIMEOUT, TLS);
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        HttpServerTimeouts timeouts = HttpTimeoutOptions.from(options);
        SslContext tls = options.flag(TLS)
                ? HttpAlpnNegotiationHandler.offerH2AndHttp11(ExampleTls.selfSignedServerBuilder(name())).build() : null;
        Supplier<Http2FrameCodec> codec = () -> Http2FrameCodec.forServer().timeouts(timeouts).build();
        ServerRunner.run(options, name(), new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                if (tls != null) {
                    HttpAlpnNegotiationHandler.addServerHandlers(ch, tls, codec, HelloStreams::new,
                            () -> http1(timeouts, null));
                    TlsFailureLog.addBehindTls(ch, "http2-hello");
                } else {
                    ch.pipeline().addLast(new CleartextHttpProtocolDetector(codec, HelloStreams::new,
                            () -> http1(timeouts, new Http2ServerUpgradeHandler(codec, HelloStreams::new))));
                }
            }
        });
    }

    /** HTTP/1.1 as {@code http-hello} serves it, with the h2c upgrade in front of it when given. */
    private static ChannelInitializer<Channel> http1(HttpServerTimeouts timeouts, Http2ServerUpgradeHandler upgrade) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpServerCodec(HttpDecoderConfig.DEFAULT,
                        HttpServerCodec.DEFAULT_MAX_PENDING_REQUESTS, timeouts));
                if (upgrade != null) {
                    ch.pipeline().addLast(upgrade);
                }
                ch.pipeline().addLast(new HttpHelloServer.HelloHandler());
            }
        };
    }

    /** Answers the streams of one connection, one frame at a time. */
    static final class HelloStreams implements ChannelHandler {
        private static final InternalLogger LOG = InternalLogger.get(HelloStreams.class);
        /** The body of every answer to GET (see the class comment). */
        private static final ByteBuf HELLO = Unpooled.constantBuffer("Hello, World!".getBytes(StandardCharsets.US_ASCII));
        /** The fields of every answer to GET and HEAD in the current second; never modified once published. */
        private static volatile HelloFields current = new HelloFields(AsciiString.EMPTY, null);

        private record HelloFields(AsciiString date, Http2Headers headers) {
        }

        /** The shared fields of this second's answers (see the class comment): made once a second, for its date. */
        private static Http2Headers helloHeaders() {
            AsciiString date = HttpHelloServer.HttpDateCache.now();
            HelloFields f = current;
            if (f.date != date) {
                f = new HelloFields(date, new Http2Headers().status("200").add("content-type", "text/plain")
                        .add("content-length", Integer.toString(HELLO.readableBytes()))
                        .add("server", HttpHelloServer.HelloResponse.SERVER).add("date", date));
                current = f;
            }
            return f.headers;
        }

        /** Streams whose body is being echoed. */
        private final Set<Integer> echoing = new HashSet<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame headers) {
                onHeaders(ctx, headers);
            } else if (msg instanceof Http2DataFrame data) {
                onData(ctx, data);
            } else if (msg instanceof Http2ResetFrame reset) {
                echoing.remove(reset.streamId());
            } else {
                ReferenceCountUtil.release(msg);
            }
        }

        private void onHeaders(ChannelHandlerContext ctx, Http2HeadersFrame frame) {
            int id = frame.streamId();
            if (!echoing.isEmpty() && echoing.contains(id)) { // isEmpty first: no boxed id per GET
                // Trailers end the request body: end the echo too.
                echoing.remove(id);
                ctx.write(new Http2DataFrame(id, Unpooled.EMPTY_BUFFER, true));
                return;
            }
            String method = String.valueOf(frame.headers().method());
            String path = String.valueOf(frame.headers().path());
            if (method.equals("POST") && path.equals("/echo")) {
                ctx.write(new Http2HeadersFrame(id, ServerFields.add(new Http2Headers().status("200")
                        .add("content-type", "application/octet-stream")), false));
                if (frame.endStream()) {
                    ctx.write(new Http2DataFrame(id, Unpooled.EMPTY_BUFFER, true));
                } else {
                    echoing.add(id);
                }
            } else if (method.equals("GET") || method.equals("HEAD")) {
                boolean head = method.equals("HEAD");
                ctx.write(new Http2HeadersFrame(id, helloHeaders(), head));
                if (!head) {
                    ctx.write(new Http2DataFrame(id, HELLO, true));
                }
            } else {
                ctx.write(new Http2HeadersFrame(id, ServerFields.add(new Http2Headers()
                        .status(path.equals("/echo") ? "405" : "404").add("content-length", "0")), true));
            }
        }

        private void onData(ChannelHandlerContext ctx, Http2DataFrame data) {
            int id = data.streamId();
            int credit = data.flowControlled();
            if (!echoing.contains(id)) {
                data.release();
                ctx.write(new Http2WindowUpdateFrame(id, credit));
                return;
            }
            if (data.endStream()) {
                echoing.remove(id);
            }
            ByteBuf content = data.content();
            // The credit goes back once the echo has left (the client can send no faster than it
            // reads), or failed: a reset stream's bytes still count against the connection's window.
            ctx.write(new Http2DataFrame(id, content, data.endStream())).addListener(f -> {
                if (ctx.channel().isActive()) {
                    ctx.writeAndFlush(new Http2WindowUpdateFrame(id, credit));
                }
            });
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("Closing {} after an error: {}", ctx.channel(), cause.toString());
            ctx.close();
        }
    }
}
