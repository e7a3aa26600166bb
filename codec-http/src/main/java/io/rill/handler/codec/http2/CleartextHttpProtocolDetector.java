package io.rill.handler.codec.http2;

import java.util.List;
import java.util.function.Supplier;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelPipeline;
import io.rill.handler.codec.ByteToMessageDecoder;

/**
 * HTTP/2 with prior knowledge (RFC 9113 §3.3) and HTTP/1.1 on one cleartext port, told apart by
 * the first bytes: a connection that starts with the 24-octet client preface
 * ({@code PRI * HTTP/2.0...}) gets the {@link Http2FrameCodec} and the HTTP/2 handler the
 * suppliers make; any other gets the HTTP/1.1 handler (typically a {@code ChannelInitializer} that
 * adds {@code HttpServerCodec}, an {@link Http2ServerUpgradeHandler} for {@code Upgrade: h2c},
 * and the application). It decides at the first byte that differs from the preface, so an
 * HTTP/1.1 request is never held back for more than that; it then replaces itself and passes on
 * the bytes it looked at.
 *
 * <p>Put it first in the pipeline of an accepted connection. All methods run on the channel's
 * event loop; one instance per connection.
 */
public final class CleartextHttpProtocolDetector extends ByteToMessageDecoder {

    private final Supplier<Http2FrameCodec> codecFactory;
    private final Supplier<? extends ChannelHandler> http2Handler;
    private final Supplier<? extends ChannelHandler> http1Handler;

    /**
     * A detector.
     *
     * @param codecFactory makes the HTTP/2 codec, e.g. {@code () -> Http2FrameCodec.forServer().build()}
     * @param http2Handler makes the handler after the codec, e.g. an {@link Http2MultiplexHandler}
     * @param http1Handler makes the handler that sets up HTTP/1.1 (a {@code ChannelInitializer})
     */
    public CleartextHttpProtocolDetector(Supplier<Http2FrameCodec> codecFactory,
                                         Supplier<? extends ChannelHandler> http2Handler,
                                         Supplier<? extends ChannelHandler> http1Handler) {
        this.codecFactory = codecFactory;
        this.http2Handler = http2Handler;
        this.http1Handler = http1Handler;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int matched = Http2Frames.matchPreface(in);
        if (matched >= 0 && matched < Http2Frames.prefaceLength()) {
            return; // a prefix of the preface so far: wait for the byte that decides
        }
        ChannelPipeline pipeline = ctx.pipeline();
        if (matched < 0) {
            pipeline.addAfter(ctx.name(), null, http1Handler.get());
        } else {
            Http2FrameCodec codec = codecFactory.get();
            pipeline.addAfter(ctx.name(), null, codec);
            pipeline.addAfter(pipeline.context(codec).name(), null, http2Handler.get());
        }
        pipeline.remove(this); // the bytes read so far, preface included, go on to what was added
    }
}
