/**
 * HTTP/1.1: the message model ({@link io.rill.handler.codec.http.HttpRequest},
 * {@link io.rill.handler.codec.http.HttpHeaders}, ...), strict request and response decoders,
 * encoders, server and client codecs, aggregation and keep-alive handling; cookies
 * ({@code .cookie}), CORS ({@code .cors}), forms and multipart ({@code .multipart}), and WebSocket
 * over HTTP/1.1 with permessage-deflate ({@code .websocketx}, {@code .websocketx.extensions}).
 * HTTP/2 is the module {@code io.rill.codec.http2} (artifact rill-codec-http2), which requires this one.
 *
 * <h2>A first server</h2>
 *
 * <p>A complete HTTP/1.1 server that answers every request with {@code Hello, World!}. One
 * {@link io.rill.channel.MultiThreadIoEventLoopGroup} (one event loop per core) both accepts
 * connections and serves them. Each accepted connection gets a pipeline of its own, built by the
 * {@link io.rill.channel.ChannelInitializer}: {@link io.rill.handler.codec.http.HttpServerCodec}
 * turns bytes into requests and responses into bytes, refuses malformed requests and times out
 * idle or slow clients; {@link io.rill.handler.codec.http.HttpServerKeepAliveHandler} closes the
 * connection after a response when HTTP says so; the application's handler comes last.
 *
 * <p>Every call to the handler happens on the connection's event loop thread, so it needs no
 * locks, and it must not block. The decoder hands each request to it as an
 * {@link io.rill.handler.codec.http.HttpRequest} followed by its body as
 * {@link io.rill.handler.codec.http.HttpContent} pieces (a
 * {@link io.rill.handler.codec.http.LastHttpContent} at the end, even when there is no body); the
 * handler owns each message it receives and must release it. A response written to the context
 * belongs to the pipeline from then on: the encoder releases its content once it is sent.
 * {@code writeAndFlush} sends at once; a server that wants to batch pipelined answers writes in
 * {@code channelRead} and flushes in {@code channelReadComplete}.
 *
 * <pre>{@code
 * import java.nio.charset.StandardCharsets;
 *
 * import io.rill.bootstrap.ServerBootstrap;
 * import io.rill.buffer.ReferenceCountUtil;
 * import io.rill.buffer.Unpooled;
 * import io.rill.channel.Channel;
 * import io.rill.channel.ChannelHandler;
 * import io.rill.channel.ChannelHandlerContext;
 * import io.rill.channel.ChannelInitializer;
 * import io.rill.channel.EventLoopGroup;
 * import io.rill.channel.MultiThreadIoEventLoopGroup;
 * import io.rill.channel.nio.NioIoHandler;
 * import io.rill.channel.nio.NioServerSocketChannel;
 * import io.rill.handler.codec.http.DefaultFullHttpResponse;
 * import io.rill.handler.codec.http.FullHttpResponse;
 * import io.rill.handler.codec.http.HttpHeaderNames;
 * import io.rill.handler.codec.http.HttpRequest;
 * import io.rill.handler.codec.http.HttpResponseStatus;
 * import io.rill.handler.codec.http.HttpServerCodec;
 * import io.rill.handler.codec.http.HttpServerKeepAliveHandler;
 * import io.rill.handler.codec.http.HttpVersion;
 *
 * public final class HelloServer {
 *
 *     public static void main(String[] args) throws Exception {
 *         EventLoopGroup group = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
 *         try {
 *             start(group, 8080).closeFuture().sync();
 *         } finally {
 *             group.shutdownGracefully();
 *         }
 *     }
 *
 *     static Channel start(EventLoopGroup group, int port) throws InterruptedException {
 *         return new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
 *                 .childHandler(new ChannelInitializer<>() {
 *                     @Override
 *                     protected void initChannel(Channel ch) {
 *                         ch.pipeline().addLast(new HttpServerCodec(), new HttpServerKeepAliveHandler(),
 *                                 new HelloHandler());
 *                     }
 *                 })
 *                 .bind(port).sync().getNow();
 *     }
 *
 *     static final class HelloHandler implements ChannelHandler {
 *         @Override
 *         public void channelRead(ChannelHandlerContext ctx, Object msg) {
 *             if (msg instanceof HttpRequest) {
 *                 byte[] hello = "Hello, World!\n".getBytes(StandardCharsets.UTF_8);
 *                 FullHttpResponse response = new DefaultFullHttpResponse(
 *                         HttpVersion.HTTP_1_1, HttpResponseStatus.OK, Unpooled.wrappedBuffer(hello));
 *                 response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
 *                         .setInt(HttpHeaderNames.CONTENT_LENGTH, hello.length);
 *                 ctx.writeAndFlush(response);
 *             }
 *             ReferenceCountUtil.release(msg); // the codec hands over requests and body pieces: we own them
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>Try it with {@code curl -i http://127.0.0.1:8080/}. To join a body into one
 * {@link io.rill.handler.codec.http.FullHttpRequest}, add an
 * {@link io.rill.handler.codec.http.HttpObjectAggregator} with a size limit before the handler;
 * for HTTPS, put the {@code SslHandler} of an {@code io.rill.handler.ssl.SslContext} first.
 */
@SuppressWarnings("module") // io.rill.codec.http2, which the internal package is exported to, is built after this one
module io.rill.codec.http {
    requires transitive io.rill.codec;
    requires transitive io.rill.handler;
    // JFR event io.rill.HttpRequestServed (HttpRequestRecorder).
    requires jdk.jfr;

    exports io.rill.handler.codec.http;
    exports io.rill.handler.codec.http.cookie;
    exports io.rill.handler.codec.http.multipart;
    exports io.rill.handler.codec.http.cors;
    exports io.rill.handler.codec.http.websocketx;
    exports io.rill.handler.codec.http.websocketx.extensions;
    // What the WebSocket clients over HTTP/1.1 and HTTP/2 share; not API, so exported only to Rill's
    // HTTP/2 module, and left out of the published javadoc.
    exports io.rill.handler.codec.http.websocketx.internal to io.rill.codec.http2;
}
