package io.rill.example;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.http.HttpServerTimeouts;
import io.rill.handler.codec.http2.CleartextHttpProtocolDetector;
import io.rill.handler.codec.http2.Http2DataFrame;
import io.rill.handler.codec.http2.Http2FrameCodec;
import io.rill.handler.codec.http2.Http2HeadersFrame;
import io.rill.handler.codec.http2.Http2ResetFrame;
import io.rill.handler.codec.http2.Http2StreamWritabilityChanged;
import io.rill.handler.codec.http2.HttpAlpnNegotiationHandler;
import io.rill.handler.ssl.SslContext;
import io.rill.util.InternalLogger;

/**
 * A gRPC echo service over h2c (prior knowledge), no protobuf needed: messages are echoed as
 * opaque bytes. {@code /rill.echo.Echo/Unary} answers one message with the same bytes;
 * {@code /rill.echo.Echo/Stream} (bidirectional streaming) echoes each message as it arrives.
 * A {@code grpc-timeout} ends a call that outlives it with {@code DEADLINE_EXCEEDED}; an unknown
 * method gets {@code UNIMPLEMENTED}, a message over 4 MiB {@code RESOURCE_EXHAUSTED}, and so does one
 * that does not fit beside the messages in flight on its connection: one connection holds at most
 * {@value #MAX_HELD_BYTES} bytes, however many calls it opens ({@link GrpcCall}). Any gRPC
 * client calling with raw bytes works, e.g. Python's grpcio:
 * {@code grpc.insecure_channel("127.0.0.1:8080").unary_unary("/rill.echo.Echo/Unary")(b"hi")}.
 * With {@code --tls} it speaks h2 by ALPN over a self-signed certificate whose PEM it prints: a
 * client trusts that file ({@code grpc.ssl_channel_credentials(open(PEM, "rb").read())}). An
 * HTTP/1.1 request gets a readable {@code 505} saying so, then the close.
 */
final class GrpcEchoServer implements Example {

    /** What one connection may hold: its window, its codec's budget and its calls' messages in flight (two whole messages). */
    static final int MAX_HELD_BYTES = 2 * (GrpcCall.MAX_MESSAGE + 5);

    @Override
    public String name() {
        return "grpc-echo";
    }

    @Override
    public String description() {
        return "gRPC echo service over h2c (--tls: h2): /rill.echo.Echo/Unary and the bidi stream /rill.echo.Echo/Stream,"
                + " raw bytes";
    }

    @Override
    public List<String> limits() {
        return List.of("messages: " + GrpcCall.MAX_MESSAGE / (1024 * 1024) + " MiB each (RESOURCE_EXHAUSTED beyond)",
                "messages in flight on one connection: " + MAX_HELD_BYTES + " bytes together, two whole messages"
                        + " (the connection window and maxHeldBytes; RESOURCE_EXHAUSTED beyond)",
                "at most 100 concurrent calls per connection (SETTINGS_MAX_CONCURRENT_STREAMS)",
                "a call's grpc-timeout is enforced (DEADLINE_EXCEEDED)",
                "HTTP/1.1 requests: 505 and the close; the first bytes must show the protocol within 20 s",
                "a connection without calls closes after --idle-timeout (GOAWAY NO_ERROR); a call's request messages"
                        + " must come at 500 B/s without a stall of --body-timeout (a streaming call too), or it is reset",
                ServerRunner.READING_LIMIT);
    }

    private static final ExampleOption TLS = ExampleOption.flag("tls",
            "TLS with a self-signed certificate made at start-up (its PEM path is printed); h2 by ALPN");

    @Override
    public List<ExampleOption> options() {
        return List.of(HttpTimeoutOptions.HEADER_TIMEOUT, HttpTimeoutOptions.BODY_TIMEOUT,
                HttpTimeoutOptions.IDLE_TIMEOUT, TLS);
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        SslContext tls = options.flag(TLS)
                ? HttpAlpnNegotiationHandler.offerH2AndHttp11(ExampleTls.selfSignedServerBuilder(name())).build() : null;
        HttpServerTimeouts timeouts = HttpTimeoutOptions.from(options);
        Supplier<Http2FrameCodec> codec = () -> codec(timeouts);
        String http1 = name() + " speaks gRPC over HTTP/2 only (" + (tls != null ? "h2 by ALPN" : "h2c with prior knowledge")
                + "), not HTTP/1.1; try: curl --http2" + (tls != null ? " -k https" : "-prior-knowledge http")
                + "://HOST:PORT/ or a gRPC client";
        ServerRunner.run(options, name(), new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                // HTTP/1.1 gets an answer a person can read (505), not the HTTP/2 codec's GOAWAY bytes.
                if (tls != null) {
                    HttpAlpnNegotiationHandler.addServerHandlers(ch, tls, codec, GrpcCalls::new,
                            () -> Http2OnlyAnswer.pipeline(http1));
                    TlsFailureLog.addBehindTls(ch, "grpc-echo");
                } else {
                    ch.pipeline().addLast(new CleartextHttpProtocolDetector(codec, GrpcCalls::new,
                            () -> Http2OnlyAnswer.pipeline(http1)));
                }
            }
        });
    }

    /**
     * The server codec grpc-echo needs: a stream window that takes a whole message (its credit
     * comes back only once it is echoed), and a connection window and budget of two.
     */
    static Http2FrameCodec codec(HttpServerTimeouts timeouts) {
        return Http2FrameCodec.forServer().timeouts(timeouts).initialWindowSize(GrpcCall.MAX_MESSAGE + 5)
                .connectionWindowSize(MAX_HELD_BYTES).maxHeldBytes(MAX_HELD_BYTES).build();
    }

    /** The calls of one connection, by stream; each frame goes to its call. */
    static final class GrpcCalls implements ChannelHandler, GrpcCall.MessageBudget {
        private static final InternalLogger LOG = InternalLogger.get(GrpcCalls.class);

        private final Map<Integer, GrpcCall> calls = new HashMap<>();
        /** Bytes of the messages in flight on the connection (see {@link GrpcCall}). */
        private long inFlight;

        @Override
        public boolean reserve(int bytes) {
            if (inFlight + bytes > MAX_HELD_BYTES) {
                return false;
            }
            inFlight += bytes;
            return true;
        }

        @Override
        public void free(int bytes) {
            inFlight -= bytes;
        }

        @Override
        public long limit() {
            return MAX_HELD_BYTES;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof Http2StreamWritabilityChanged changed && changed.writable()) {
                GrpcCall call = calls.get(changed.streamId());
                if (call != null) {
                    call.resume();
                    ctx.flush();
                }
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame headers) {
                GrpcCall call = calls.get(headers.streamId());
                if (call == null) {
                    call = GrpcCall.start(ctx, headers, () -> calls.remove(headers.streamId()), this);
                    if (call != null && !call.isDone()) {
                        calls.put(headers.streamId(), call);
                    }
                } else {
                    call.onTrailers(headers);
                }
            } else if (msg instanceof Http2DataFrame data) {
                GrpcCall call = calls.get(data.streamId());
                if (call == null) {
                    GrpcCall.discard(ctx, data);
                } else {
                    call.onData(data);
                }
            } else if (msg instanceof Http2ResetFrame reset) {
                GrpcCall call = calls.remove(reset.streamId());
                if (call != null) {
                    call.cancel();
                }
            } else {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            calls.values().forEach(GrpcCall::cancel);
            calls.clear();
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("Closing {} after an error: {}", ctx.channel(), cause.toString());
            ctx.close();
        }
    }
}
