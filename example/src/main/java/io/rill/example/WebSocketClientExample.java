package io.rill.example;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.rill.bootstrap.Bootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.handler.codec.http.HttpClientCodec;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.rill.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.rill.handler.codec.http.websocketx.TextWebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketClientHandshaker;
import io.rill.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.rill.handler.codec.http.websocketx.WebSocketCloseReceived;
import io.rill.handler.codec.http.websocketx.WebSocketExtensionNegotiator;
import io.rill.handler.codec.http.websocketx.WebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.rill.handler.codec.http.websocketx.extensions.PerMessageDeflateClientNegotiator;
import io.rill.handler.codec.http2.Http2FrameCodec;
import io.rill.handler.codec.http2.Http2MultiplexHandler;
import io.rill.handler.codec.http2.Http2StreamChannel;
import io.rill.handler.codec.http2.HttpAlpnNegotiationHandler;
import io.rill.handler.codec.http2.websocketx.Http2WebSocketClientHandler;
import io.rill.handler.ssl.SslContext;
import io.rill.util.concurrent.Future;

/**
 * Connects to {@code --url ws://host[:port]/path} (or {@code wss://}, verified against the JDK's
 * trust store and the host name; {@code --trust PEM} or {@code --insecure} for a self-signed
 * server, see {@link ClientTls}), sends each line of stdin as a text message and prints each message received: text
 * as it is, binary as {@code [binary N bytes]}. At the end of stdin it closes with 1000 and waits
 * for the server's close. Over HTTP/1.1 it offers permessage-deflate ({@code --no-compression} to
 * not). Exits 1 if the handshake fails or takes longer than {@code --timeout}.
 *
 * <p>{@code --http2} opens the WebSocket on a stream of an HTTP/2 connection instead (RFC 8441):
 * h2c by prior knowledge for {@code ws://}, h2 by ALPN for {@code wss://}. It fails at once with a
 * message saying why when the server does not speak HTTP/2 (it closes, or chooses http/1.1 by
 * ALPN) or does not send SETTINGS_ENABLE_CONNECT_PROTOCOL.
 */
final class WebSocketClientExample implements Example {

    /** The largest message printed, after inflation and joining fragments; larger: close 1009. */
    private static final int MAX_MESSAGE = 1 << 20;
    /** How long --http2 waits for the server's first SETTINGS before saying it does not speak HTTP/2. */
    private static final int SETTINGS_WAIT_SECONDS = 3;
    private static final ExampleOption URL = ExampleOption.text("url", "URL", null,
            "where to connect: ws://host[:port]/path or wss://... (required)");
    private static final ExampleOption TIMEOUT = ExampleOption.number("timeout", "SECONDS", 10, 1, 3600,
            "give up (exit 1) when the handshake has not completed by then");
    private static final ExampleOption HTTP2 = ExampleOption.flag("http2",
            "WebSocket over HTTP/2 (RFC 8441): h2c by prior knowledge for ws://, h2 by ALPN for wss://;"
                    + " a server that closes, picks http/1.1 or sends no SETTINGS within 3 s is named at once");
    private static final ExampleOption NO_COMPRESSION = ExampleOption.flag("no-compression",
            "do not offer permessage-deflate");
    // TLS options: ClientTls.TRUST and ClientTls.INSECURE.

    @Override
    public String name() {
        return "websocket-client";
    }

    @Override
    public String description() {
        return "sends stdin lines over WebSocket, prints what comes back (--url ws://HOST:PORT/; --http2 for RFC 8441)";
    }

    @Override
    public List<ExampleOption> options() {
        return List.of(URL, TIMEOUT, HTTP2, NO_COMPRESSION, ClientTls.TRUST, ClientTls.INSECURE);
    }

    @Override
    public List<String> limits() {
        return List.of("received message: 1 MiB, fragments joined, inflated (close 1009 beyond)");
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        URI uri = parse(options.text(URL));
        int timeout = options.intValue(TIMEOUT);
        boolean tls = "wss".equalsIgnoreCase(uri.getScheme());
        int port = uri.getPort() >= 0 ? uri.getPort() : tls ? 443 : 80;
        MultiThreadIoEventLoopGroup group = Transports.newGroup(options, name());
        try {
            Channel ch = options.flag(HTTP2) ? openOverHttp2(options, group, uri, port, timeout)
                    : openOverHttp1(options, group, uri, port, timeout);
            // stdin on a daemon thread: the server may close first, and a blocked readLine must not keep us.
            Thread sender = new Thread(() -> send(ch), name() + "-stdin");
            sender.setDaemon(true);
            sender.start();
            ch.closeFuture().await();
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        }
    }

    /** A connection upgraded from HTTP/1.1: the WebSocket is the connection. */
    private Channel openOverHttp1(ExampleOptions options, MultiThreadIoEventLoopGroup group, URI uri, int port,
            int timeout) throws Exception {
        Printer printer = new Printer(System.out);
        SslContext ssl = "wss".equalsIgnoreCase(uri.getScheme()) ? ClientTls.context(options) : null;
        WebSocketExtensionNegotiator extensions = options.flag(NO_COMPRESSION) ? WebSocketExtensionNegotiator.NONE
                : PerMessageDeflateClientNegotiator.builder().maxInflatedMessage(MAX_MESSAGE).build();
        Duration wait = Duration.ofSeconds(timeout);
        WebSocketClientProtocolHandler handshake = new WebSocketClientProtocolHandler(new WebSocketClientHandshaker(uri,
                List.of(), new HttpHeaders(), extensions.offer(), extensions), MAX_MESSAGE, MAX_MESSAGE, wait, wait);
        Channel ch = new Bootstrap().group(group).channelFactory(Transports.clientChannel(options))
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel c) {
                        if (ssl != null) {
                            c.pipeline().addLast(ssl.newHandler(c.alloc(), uri.getHost(), port));
                            TlsFailureLog.quietBehindTls(c);
                        }
                        c.pipeline().addLast(new HttpClientCodec(), handshake, new WebSocketFrameAggregator(MAX_MESSAGE),
                                printer);
                    }
                })
                .connect(uri.getHost(), port).sync().getNow();
        if (ssl != null) {
            ClientTls.awaitHandshake(ch, uri.getHost() + ":" + port, timeout);
        }
        if (!handshake.handshakeFuture().await(timeout, TimeUnit.SECONDS)) {
            ch.close();
            throw new IllegalStateException("no WebSocket handshake within " + timeout + " s");
        }
        if (!handshake.handshakeFuture().isSuccess()) {
            ch.close();
            throw new IllegalStateException(handshake.handshakeFuture().cause().getMessage());
        }
        printer.opened(); // a failed handshake is reported once, above; from now on the printer reports errors
        return ch;
    }

    /** An HTTP/2 connection: the WebSocket is one of its streams; closing the stream ends the program. */
    private Channel openOverHttp2(ExampleOptions options, MultiThreadIoEventLoopGroup group, URI uri, int port,
            int timeout) throws Exception {
        CompletableFuture<Void> h2 = new CompletableFuture<>();
        Supplier<Http2FrameCodec> codec = () -> Http2FrameCodec.forClient().build();
        Supplier<ChannelHandler> multiplex = () -> {
            h2.complete(null);
            return new Http2MultiplexHandler(null);
        };
        SslContext ssl = "wss".equalsIgnoreCase(uri.getScheme())
                ? HttpAlpnNegotiationHandler.offerH2AndHttp11(ClientTls.builder(options)).build() : null;
        String peer = uri.getHost() + ":" + port;
        Channel connection = new Bootstrap().group(group).channelFactory(Transports.clientChannel(options))
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel c) {
                        if (ssl == null) {
                            c.pipeline().addLast(codec.get(), multiplex.get());
                            return;
                        }
                        HttpAlpnNegotiationHandler.addClientHandlers(c, ssl, uri.getHost(), port, codec, multiplex, () -> {
                            h2.completeExceptionally(new IllegalStateException("no HTTP/2 connection: " + peer
                                    + " chose http/1.1 by ALPN, it does not speak HTTP/2; drop --http2"));
                            return new ChannelInitializer<>() {
                                @Override
                                protected void initChannel(Channel x) {
                                    x.close();
                                }
                            };
                        });
                        TlsFailureLog.quietBehindTls(c);
                    }
                })
                .connect(uri.getHost(), port).sync().getNow();
        // A server that does not speak HTTP/2 closes (or answers HTTP/1.1 and closes) instead of sending
        // SETTINGS: say so at once rather than let the handshake wait out its timeout.
        connection.closeFuture().addListener(f -> h2.completeExceptionally(new IllegalStateException(
                "no HTTP/2 connection: " + peer + " closed the connection " + (ssl == null
                        ? "without answering the HTTP/2 preface: it does not speak h2c with prior knowledge; drop --http2"
                        : "during the TLS handshake"))));
        try {
            if (ssl != null) {
                ClientTls.awaitHandshake(connection, peer, timeout);
            }
            h2.get(timeout, TimeUnit.SECONDS);
            awaitServerSettings(connection, peer, Math.min(timeout, SETTINGS_WAIT_SECONDS), ssl == null);
            if (!connection.isActive()) {
                throw closedWithoutHttp2(peer, ssl == null);
            }
            Duration wait = Duration.ofSeconds(timeout);
            Future<Http2StreamChannel> ws = new Http2WebSocketClientHandler(new WebSocketClientHandshaker(uri, List.of(),
                    new HttpHeaders(), null, WebSocketExtensionNegotiator.NONE), MAX_MESSAGE, MAX_MESSAGE, wait, wait)
                    .open(connection, new ChannelInitializer<Http2StreamChannel>() {
                        @Override
                        protected void initChannel(Http2StreamChannel stream) {
                            Printer printer = new Printer(System.out);
                            printer.opened(); // the stream exists once the handshake succeeded
                            stream.pipeline().addLast(new WebSocketFrameAggregator(MAX_MESSAGE), printer);
                        }
                    });
            CompletableFuture<Void> wsDone = new CompletableFuture<>();
            ws.addListener(f -> wsDone.complete(null));
            connection.closeFuture().addListener(f -> wsDone.complete(null));
            try {
                wsDone.get(timeout, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new IllegalStateException("no WebSocket handshake within " + timeout + " s");
            }
            if (!ws.isDone()) {
                throw closedWithoutHttp2(peer, ssl == null);
            }
            if (!ws.isSuccess()) {
                throw new IllegalStateException(ws.cause().getMessage());
            }
            Http2StreamChannel stream = ws.getNow();
            stream.closeFuture().addListener(f -> connection.close());
            return stream;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            connection.close();
            throw new IllegalStateException(e instanceof java.util.concurrent.TimeoutException
                    ? "no HTTP/2 connection within " + timeout + " s" : e.getCause().getMessage());
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    private static IllegalStateException closedWithoutHttp2(String peer, boolean cleartext) {
        return new IllegalStateException("no HTTP/2 connection: " + peer + " closed it before the WebSocket handshake"
                + (cleartext ? " (does it speak h2c with prior knowledge?); drop --http2" : ""));
    }

    /**
     * Waits for the server's SETTINGS, which an HTTP/2 server sends first thing (RFC 9113 section
     * 3.4): a peer that sends none within {@code seconds} does not speak HTTP/2 (a server that
     * waits for an HTTP/1.1 request, say), and the user is told so instead of waiting out the
     * handshake's timeout. A close meanwhile is reported by the caller.
     */
    private static void awaitServerSettings(Channel connection, String peer, int seconds, boolean cleartext)
            throws Exception {
        Http2FrameCodec frameCodec = connection.pipeline().get(Http2FrameCodec.class);
        if (frameCodec == null) {
            return; // already closed
        }
        CompletableFuture<Void> settings = new CompletableFuture<>();
        connection.eventLoop().execute(() -> frameCodec.peerSettingsReceived().addListener(f -> settings.complete(null)));
        connection.closeFuture().addListener(f -> settings.complete(null));
        try {
            settings.get(seconds, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            connection.close();
            throw new IllegalStateException("no HTTP/2 connection: " + peer + " sent no SETTINGS within " + seconds
                    + " s (an HTTP/2 server sends them at once), so it does not speak HTTP/2"
                    + (cleartext ? " with prior knowledge (h2c)" : "") + "; drop --http2");
        }
    }

    /** Sends stdin line by line, then a close with 1000; the close handshake's timeout bounds the end. */
    private static void send(Channel ch) {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try {
            for (String line; ch.isActive() && (line = in.readLine()) != null; ) {
                ch.writeAndFlush(new TextWebSocketFrame(line));
            }
        } catch (java.io.IOException e) {
            System.err.println("websocket-client: stdin: " + e.getMessage());
        }
        if (ch.isActive()) {
            ch.writeAndFlush(new CloseWebSocketFrame(CloseWebSocketFrame.NORMAL_CLOSURE, "end of input"));
        }
    }

    private static URI parse(String url) {
        if (url == null) {
            throw new ExampleOptions.UsageException("--url is required");
        }
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme();
            if (uri.getHost() == null || !"ws".equalsIgnoreCase(scheme) && !"wss".equalsIgnoreCase(scheme)) {
                throw new ExampleOptions.UsageException("--url must be ws://host[:port]/path or wss://...");
            }
            return uri;
        } catch (java.net.URISyntaxException e) {
            throw new ExampleOptions.UsageException("--url '" + url + "': " + e.getMessage());
        }
    }

    /** Prints messages as they come, and the server's close status. */
    static final class Printer implements ChannelHandler {
        private final PrintStream out;
        /** Set once the handshake succeeded: a failure before is reported by whoever awaits the handshake. */
        private volatile boolean open;

        Printer(PrintStream out) {
            this.out = out;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            WebSocketFrame frame = (WebSocketFrame) msg;
            try {
                if (frame instanceof TextWebSocketFrame text) {
                    out.println(text.text());
                } else if (frame instanceof BinaryWebSocketFrame) {
                    out.println("[binary " + frame.content().readableBytes() + " bytes]");
                }
                out.flush();
            } finally {
                frame.release();
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof WebSocketCloseReceived close) {
                System.err.println("closed by the server: " + close.status() + " " + close.reason());
            }
        }

        void opened() {
            open = true;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (open) {
                System.err.println("websocket-client: " + cause.getMessage());
            }
            ctx.close();
        }
    }
}
