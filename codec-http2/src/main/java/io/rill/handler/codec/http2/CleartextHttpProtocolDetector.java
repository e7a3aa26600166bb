package io.rill.handler.codec.http2;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelPipeline;
import io.rill.handler.codec.ByteToMessageDecoder;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * HTTP/2 with prior knowledge (RFC 9113 §3.3) and HTTP/1.1 on one cleartext port, told apart by
 * the first bytes: a connection that starts with the 24-octet client preface
 * ({@code PRI * HTTP/2.0...}) gets the {@link Http2FrameCodec} and the HTTP/2 handler the
 * suppliers make; one whose first line is an HTTP/1.x request line (it ends in {@code HTTP/1.0} or
 * {@code HTTP/1.1}, or is too long to be judged: the HTTP/1.1 codec then refuses it) gets the
 * HTTP/1.1 handler (typically a {@code ChannelInitializer} that adds {@code HttpServerCodec}, an
 * {@link Http2ServerUpgradeHandler} for {@code Upgrade: h2c}, and the application). Anything else
 * is a failed HTTP/2 preface: GOAWAY {@code PROTOCOL_ERROR} and the close (§3.4), rather than an
 * HTTP/1.1 answer to a peer that spoke neither.
 *
 * <p>Waiting for the first line is bounded: at most {@value #MAX_FIRST_LINE} bytes and
 * {@code decideWithin} of time from the connection's start; a peer that sends nothing or too
 * slowly is closed then. Once decided, the detector replaces itself and passes on the bytes it
 * looked at.
 *
 * <p>Put it first in the pipeline of an accepted connection. All methods run on the channel's
 * event loop; one instance per connection.
 */
public final class CleartextHttpProtocolDetector extends ByteToMessageDecoder {

    /** How many bytes of a first line are read before HTTP/1.1 is assumed (and its codec judges). */
    public static final int MAX_FIRST_LINE = 4096;
    /** The default time to decide: the default request-head timeout of {@code HttpServerTimeouts}. */
    public static final Duration DEFAULT_DECIDE_WITHIN = Duration.ofSeconds(20);

    private final Supplier<Http2FrameCodec> codecFactory;
    private final Supplier<? extends ChannelHandler> http2Handler;
    private final Supplier<? extends ChannelHandler> http1Handler;
    private final Duration decideWithin;
    private ScheduledFuture<?> deadline;

    /**
     * A detector that closes connections undecided after {@link #DEFAULT_DECIDE_WITHIN}.
     *
     * @param codecFactory makes the HTTP/2 codec, e.g. {@code () -> Http2FrameCodec.forServer().build()}
     * @param http2Handler makes the handler after the codec, e.g. an {@link Http2MultiplexHandler}
     * @param http1Handler makes the handler that sets up HTTP/1.1 (a {@code ChannelInitializer})
     */
    public CleartextHttpProtocolDetector(Supplier<Http2FrameCodec> codecFactory,
                                         Supplier<? extends ChannelHandler> http2Handler,
                                         Supplier<? extends ChannelHandler> http1Handler) {
        this(codecFactory, http2Handler, http1Handler, DEFAULT_DECIDE_WITHIN);
    }

    /**
     * A detector.
     *
     * @param codecFactory makes the HTTP/2 codec, e.g. {@code () -> Http2FrameCodec.forServer().build()}
     * @param http2Handler makes the handler after the codec, e.g. an {@link Http2MultiplexHandler}
     * @param http1Handler makes the handler that sets up HTTP/1.1 (a {@code ChannelInitializer})
     * @param decideWithin how long a connection may take to show which protocol it speaks
     */
    public CleartextHttpProtocolDetector(Supplier<Http2FrameCodec> codecFactory,
                                         Supplier<? extends ChannelHandler> http2Handler,
                                         Supplier<? extends ChannelHandler> http1Handler, Duration decideWithin) {
        if (decideWithin.isNegative() || decideWithin.isZero()) {
            throw new IllegalArgumentException("decideWithin: " + decideWithin + " (expected: > 0)");
        }
        this.codecFactory = codecFactory;
        this.http2Handler = http2Handler;
        this.http1Handler = http1Handler;
        this.decideWithin = decideWithin;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        deadline = ctx.executor().schedule(() -> {
            if (!ctx.isRemoved()) {
                ctx.close(); // nothing decisive arrived in time: Slowloris on the first line
            }
        }, decideWithin.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        deadline.cancel(false);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int matched = Http2Frames.matchPreface(in);
        if (matched >= 0 && matched < Http2Frames.prefaceLength()) {
            return; // a prefix of the preface so far: wait for the byte that decides
        }
        ChannelPipeline pipeline = ctx.pipeline();
        if (matched >= 0) {
            Http2FrameCodec codec = codecFactory.get();
            pipeline.addAfter(ctx.name(), null, codec);
            pipeline.addAfter(pipeline.context(codec).name(), null, http2Handler.get());
            pipeline.remove(this); // the bytes read so far, preface included, go on to the codec
            return;
        }
        int lineEnd = in.indexOf(in.readerIndex(), in.readerIndex() + Math.min(in.readableBytes(), MAX_FIRST_LINE), (byte) '\n');
        if (lineEnd < 0 && in.readableBytes() < MAX_FIRST_LINE) {
            return; // the first line is not complete yet
        }
        if (lineEnd < 0 || isHttp1RequestLine(in, lineEnd)) {
            pipeline.addAfter(ctx.name(), null, http1Handler.get());
            pipeline.remove(this);
            return;
        }
        // Neither protocol: an invalid HTTP/2 preface, a connection error (RFC 9113 §3.4).
        in.skipBytes(in.readableBytes());
        ByteBuf goAway = ctx.alloc().buffer(17 + 28);
        new Http2FrameWriter((headers, block) -> { }).writeGoAway(goAway, 0, Http2Error.PROTOCOL_ERROR,
                "not an HTTP/2 preface");
        ctx.writeAndFlush(goAway).addListener(f -> ctx.close());
    }

    /** Whether the line ending at {@code lineEnd} (its LF) ends in {@code HTTP/1.0} or {@code HTTP/1.1}. */
    private static boolean isHttp1RequestLine(ByteBuf in, int lineEnd) {
        int end = lineEnd > in.readerIndex() && in.getByte(lineEnd - 1) == '\r' ? lineEnd - 1 : lineEnd;
        if (end - in.readerIndex() < 10) {
            return false;
        }
        String version = in.toString(end - 9, 9, StandardCharsets.US_ASCII);
        return version.equals(" HTTP/1.1") || version.equals(" HTTP/1.0");
    }
}
