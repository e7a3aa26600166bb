package io.rill.example;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.rill.bootstrap.Bootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.handler.codec.http.HttpClientCodec;
import io.rill.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.rill.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.rill.handler.codec.http.websocketx.TextWebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.rill.handler.codec.http.websocketx.WebSocketCloseReceived;
import io.rill.handler.codec.http.websocketx.WebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketExtensionNegotiator;
import io.rill.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.rill.handler.codec.http.websocketx.extensions.PerMessageDeflateClientNegotiator;
import io.rill.handler.ssl.SslContext;
import io.rill.handler.ssl.SslContextBuilder;

/**
 * Connects to {@code --url ws://host[:port]/path} (or {@code wss://}, verified against the JDK's
 * trust store), sends each line of stdin as a text message and prints each message received: text
 * as it is, binary as {@code [binary N bytes]}. At the end of stdin it closes with 1000 and waits
 * for the server's close. It offers permessage-deflate ({@code --no-compression} to not). Exits 1 if the handshake fails or takes longer than {@code --timeout}.
 */
final class WebSocketClientExample implements Example {

    private static final ExampleOption URL = ExampleOption.text("url", "URL", null,
            "where to connect: ws://host[:port]/path or wss://... (required)");
    private static final ExampleOption TIMEOUT = ExampleOption.number("timeout", "SECONDS", 10, 1, 3600,
            "give up (exit 1) when the handshake has not completed by then");
    private static final ExampleOption NO_COMPRESSION = ExampleOption.flag("no-compression",
            "do not offer permessage-deflate");

    @Override
    public String name() {
        return "websocket-client";
    }

    @Override
    public String description() {
        return "sends stdin lines over WebSocket, prints what comes back (--url ws://HOST:PORT/)";
    }

    @Override
    public List<ExampleOption> options() {
        return List.of(URL, TIMEOUT, NO_COMPRESSION);
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
        SslContext ssl = tls ? SslContextBuilder.forClient().build() : null;
        int port = uri.getPort() >= 0 ? uri.getPort() : tls ? 443 : 80;
        MultiThreadIoEventLoopGroup group = Transports.newGroup(options, name());
        try {
            WebSocketExtensionNegotiator extensions = options.flag(NO_COMPRESSION) ? WebSocketExtensionNegotiator.NONE
                    : PerMessageDeflateClientNegotiator.builder().maxInflatedMessage(1 << 20).build();
            WebSocketClientProtocolHandler handshake = WebSocketClientProtocolHandler.of(uri, extensions);
            Channel ch = new Bootstrap().group(group).channelFactory(Transports.clientChannel(options))
                    .handler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel c) {
                            if (ssl != null) {
                                c.pipeline().addLast(ssl.newHandler(c.alloc(), uri.getHost(), port));
                            }
                            c.pipeline().addLast(new HttpClientCodec(), handshake, new WebSocketFrameAggregator(1 << 20),
                                    new Printer(System.out));
                        }
                    })
                    .connect(uri.getHost(), port).sync().getNow();
            if (!handshake.handshakeFuture().await(timeout, TimeUnit.SECONDS)) {
                ch.close();
                throw new IllegalStateException("no WebSocket handshake within " + timeout + " s");
            }
            if (!handshake.handshakeFuture().isSuccess()) {
                throw new IllegalStateException(handshake.handshakeFuture().cause().getMessage());
            }
            // stdin on a daemon thread: the server may close first, and a blocked readLine must not keep us.
            Thread sender = new Thread(() -> send(ch), name() + "-stdin");
            sender.setDaemon(true);
            sender.start();
            ch.closeFuture().await();
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
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

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            System.err.println("websocket-client: " + cause.getMessage());
            ctx.close();
        }
    }
}
