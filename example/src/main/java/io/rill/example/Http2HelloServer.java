package io.rill.example;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.http2.Http2DataFrame;
import io.rill.handler.codec.http2.Http2FrameCodec;
import io.rill.handler.codec.http2.Http2Headers;
import io.rill.handler.codec.http2.Http2HeadersFrame;
import io.rill.handler.codec.http2.Http2ResetFrame;
import io.rill.handler.codec.http2.Http2WindowUpdateFrame;
import io.rill.util.InternalLogger;

/**
 * HTTP/2 hello world over cleartext with prior knowledge (h2c): {@code GET} (or {@code HEAD}) of
 * any path answers {@code Hello, World!}; {@code POST /echo} echoes the body as it arrives, with
 * flow control end to end: the client's window on a stream reopens only as the echo of what it
 * sent leaves, so a body of any size costs the server at most a window of memory. Try
 * {@code curl --http2-prior-knowledge http://127.0.0.1:8080/}.
 */
final class Http2HelloServer implements Example {

    @Override
    public String name() {
        return "http2-hello";
    }

    @Override
    public String description() {
        return "HTTP/2 (h2c, prior knowledge) hello world and POST /echo (try: curl --http2-prior-knowledge http://HOST:PORT/)";
    }

    @Override
    public List<String> limits() {
        return List.of("at most 100 concurrent streams per connection (SETTINGS_MAX_CONCURRENT_STREAMS)",
                "request header list: 8 KiB (SETTINGS_MAX_HEADER_LIST_SIZE)",
                "POST /echo: any size, at most a 64 KiB stream window held per stream (flow control)",
                ServerRunner.READING_LIMIT);
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        ServerRunner.run(options, name(), new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(Http2FrameCodec.forServer().build(), new HelloStreams());
            }
        });
    }

    /** Answers the streams of one connection, one frame at a time. */
    static final class HelloStreams implements ChannelHandler {
        private static final InternalLogger LOG = InternalLogger.get(HelloStreams.class);
        private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

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
            if (echoing.contains(id)) {
                // Trailers end the request body: end the echo too.
                echoing.remove(id);
                ctx.write(new Http2DataFrame(id, Unpooled.EMPTY_BUFFER, true));
                return;
            }
            String method = String.valueOf(frame.headers().method());
            String path = String.valueOf(frame.headers().path());
            if (method.equals("POST") && path.equals("/echo")) {
                ctx.write(new Http2HeadersFrame(id, new Http2Headers().status("200")
                        .add("content-type", "application/octet-stream"), false));
                if (frame.endStream()) {
                    ctx.write(new Http2DataFrame(id, Unpooled.EMPTY_BUFFER, true));
                } else {
                    echoing.add(id);
                }
            } else if (method.equals("GET") || method.equals("HEAD")) {
                boolean head = method.equals("HEAD");
                ctx.write(new Http2HeadersFrame(id, new Http2Headers().status("200").add("content-type", "text/plain")
                        .add("content-length", Integer.toString(HELLO.length)), head));
                if (!head) {
                    ctx.write(new Http2DataFrame(id, Unpooled.wrappedBuffer(HELLO), true));
                }
            } else {
                ctx.write(new Http2HeadersFrame(id, new Http2Headers().status(path.equals("/echo") ? "405" : "404")
                        .add("content-length", "0"), true));
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
            // The credit goes back once the echo has left: the client can send no faster than it reads.
            ctx.write(new Http2DataFrame(id, content, data.endStream())).addListener(f -> {
                if (f.isSuccess()) {
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
