package io.rill.microbench.peers;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.AbstractHttp2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.AsciiString;

/**
 * One connection of {@link NettyHttp2HelloServer} in its default shape: Netty's connection handler
 * calls this listener straight from the frame decoder, and the answer goes to the encoder, with no
 * frame object in between. {@code GET} and {@code HEAD} get {@code Hello, World!}, anything else
 * 404, answered when the request head arrives; a request body is consumed and its flow-control
 * credit returned at once. {@code POST /echo} echoes the body as it arrives (Rill's http2-hello
 * does the same, for h2-attacks.sh), returning each DATA frame's credit once its echo is written.
 */
final class HelloListener extends Http2ConnectionHandler {
    /** Never released: each response carries a duplicate, as Netty's plaintext benchmark entries do. */
    static final ByteBuf BODY = Unpooled.unreleasableBuffer(
            Unpooled.directBuffer(13).writeBytes("Hello, World!".getBytes(StandardCharsets.US_ASCII)));
    static final AsciiString OK = AsciiString.cached("200");
    static final AsciiString NOT_FOUND = AsciiString.cached("404");
    static final AsciiString CONTENT_TYPE = AsciiString.cached("content-type");
    static final AsciiString CONTENT_LENGTH = AsciiString.cached("content-length");
    static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain");
    static final AsciiString THIRTEEN = AsciiString.cached("13");
    static final AsciiString ZERO = AsciiString.cached("0");
    static final AsciiString GET = AsciiString.cached("GET");
    static final AsciiString HEAD = AsciiString.cached("HEAD");
    static final AsciiString POST = AsciiString.cached("POST");
    static final AsciiString ECHO = AsciiString.cached("/echo");

    private HelloListener(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings settings) {
        super(decoder, encoder, settings);
    }

    /** Netty builds a connection handler through a builder; this one makes the listener too. */
    static final class Builder extends AbstractHttp2ConnectionHandlerBuilder<HelloListener, Builder> {
        Builder() {
            initialSettings(NettyHttp2HelloServer.settings());
        }

        @Override
        protected HelloListener build() {
            return super.build();
        }

        @Override
        protected HelloListener build(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder,
                Http2Settings settings) {
            HelloListener handler = new HelloListener(decoder, encoder, settings);
            decoder.frameListener(handler.new Frames());
            return handler;
        }
    }

    /** The decoder's callbacks; the connection handler flushes once per read batch. */
    private final class Frames extends Http2FrameAdapter {
        /** Streams whose request body is being echoed ({@code POST /echo}). */
        private final Set<Integer> echoing = new HashSet<>();

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                boolean endStream) {
            // Answered at once, body or not: a body is only consumed (see onDataRead).
            CharSequence method = headers.method();
            Http2ConnectionEncoder out = encoder();
            boolean head = method != null && HEAD.contentEquals(method);
            if (method != null && POST.contentEquals(method) && ECHO.contentEquals(headers.path())) {
                echoing.add(streamId);
                out.writeHeaders(ctx, streamId, new DefaultHttp2Headers().status(OK), 0, endStream, ctx.newPromise());
            } else if (head || method != null && GET.contentEquals(method)) {
                Http2Headers response = new DefaultHttp2Headers().status(OK)
                        .add(CONTENT_TYPE, TEXT_PLAIN).add(CONTENT_LENGTH, THIRTEEN);
                out.writeHeaders(ctx, streamId, response, 0, head, ctx.newPromise());
                if (!head) {
                    out.writeData(ctx, streamId, BODY.duplicate(), 0, true, ctx.newPromise());
                }
            } else {
                out.writeHeaders(ctx, streamId, new DefaultHttp2Headers().status(NOT_FOUND).add(CONTENT_LENGTH, ZERO),
                        0, true, ctx.newPromise());
            }
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
                short weight, boolean exclusive, int padding, boolean endStream) {
            onHeadersRead(ctx, streamId, headers, padding, endStream);
        }

        @Override
        public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream) {
            int credit = data.readableBytes() + padding;
            if (!(endOfStream ? echoing.remove(streamId) : echoing.contains(streamId))) {
                return credit; // consumed: the window reopens at once
            }
            // The credit goes back once the echo has been written, as a careful Netty echo does.
            Http2Stream stream = connection().stream(streamId);
            encoder().writeData(ctx, streamId, data.retain(), 0, endOfStream, ctx.newPromise()).addListener(f -> {
                if (f.isSuccess()) { // on a stream closed meanwhile Netty returns the credit itself
                    try {
                        decoder().flowController().consumeBytes(stream, credit);
                    } catch (Http2Exception e) {
                        onError(ctx, false, e);
                    }
                }
            });
            return 0;
        }

        @Override
        public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
            echoing.remove(streamId);
        }
    }
}
