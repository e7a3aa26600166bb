package io.rill.handler.codec.http2;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/**
 * Turns each HTTP/2 stream into a child channel ({@link Http2StreamChannel}) with a pipeline of
 * its own; goes right after {@link Http2FrameCodec} in the connection's pipeline.
 *
 * <p>When the peer opens a stream (a request, on a server), a child channel is made, the
 * {@code inboundStreamHandler} given here is added to its pipeline (typically a
 * {@link io.rill.channel.ChannelInitializer}, hence sharable), and the child is registered, so it
 * fires {@code channelActive} and then reads the stream's frames. Streams this side opens (a
 * client's requests) come from {@link Http2StreamChannelBootstrap}.
 *
 * <p>Stream frames never travel further up the connection's pipeline: each goes to its stream's
 * channel. {@link Http2GoAwayFrame}s and other connection-level messages do go on, after the
 * streams the GOAWAY refused (ours above its last stream id) have been closed. Writability of the
 * connection and of each stream (the codec's {@link Http2StreamWritabilityChanged}) is passed to
 * the stream channels. When the connection closes, every stream channel closes.
 *
 * <p>Event loop only, like the codec; one instance per connection.
 */
public final class Http2MultiplexHandler implements ChannelHandler {

    /** Writability bit a child clears while its stream's queue in the codec is above the high water mark. */
    static final int STREAM_WRITABILITY_BIT = 1;
    /** Writability bit a child clears while the connection is not writable. */
    static final int CONNECTION_WRITABILITY_BIT = 2;

    private final ChannelHandler inboundStreamHandler;
    private final Map<Integer, Http2StreamChannel> children = new HashMap<>();
    /** Children that were handed frames during the current read burst and owe channelReadComplete. */
    private final List<Http2StreamChannel> readComplete = new ArrayList<>();
    private ChannelHandlerContext ctx;
    private Http2FrameCodec codec;
    /** Between the connection's first channelRead of a burst and its channelReadComplete. */
    private boolean inReadBurst;
    /** The highest stream id this side opened through a child: ids must go out in increasing order (RFC 9113 §5.1.1). */
    private int highestLocalOpened;
    /** The highest stream id the peer opened: a child is made only for a new one. */
    private int highestPeerOpened;

    /**
     * A multiplexer for a server, or a client that accepts no pushed streams.
     *
     * @param inboundStreamHandler added to the pipeline of each stream the peer opens; may be null on
     *        a client (push is disabled), and then a stream the peer opens is refused
     */
    public Http2MultiplexHandler(ChannelHandler inboundStreamHandler) {
        this.inboundStreamHandler = inboundStreamHandler;
    }

    ChannelHandlerContext ctx() {
        return ctx;
    }

    Http2FrameCodec codec() {
        return codec;
    }

    boolean inReadBurst() {
        return inReadBurst;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        codec = ctx.pipeline().get(Http2FrameCodec.class);
        if (codec == null) {
            throw new IllegalStateException("Http2MultiplexHandler goes after an Http2FrameCodec; there is none in "
                    + ctx.pipeline().names());
        }
        this.ctx = ctx;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        closeAll();
    }

    // ---------------------------------------------------------------- inbound

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        inReadBurst = true;
        if (msg instanceof Http2ResetFrame rst) {
            Http2StreamChannel child = children.get(rst.streamId());
            if (child != null) {
                child.resetReceived(rst);
            }
        } else if (msg instanceof Http2HeadersFrame || msg instanceof Http2DataFrame) {
            int id = ((Http2StreamFrame) msg).streamId();
            Http2StreamChannel child = children.get(id);
            if (child == null && msg instanceof Http2HeadersFrame && !isLocal(id) && id > highestPeerOpened) {
                highestPeerOpened = id; // trailers of a stream whose channel closed must not open a new one
                child = openInbound(id);
            }
            if (child == null) {
                dropFrame(msg);
                return;
            }
            child.frameReceived(msg);
        } else {
            if (msg instanceof Http2GoAwayFrame goAway) {
                closeRefused(goAway.lastStreamId());
            }
            ctx.fireChannelRead(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        inReadBurst = false;
        // A child's handlers may read or close others in theirs: work on a snapshot.
        if (!readComplete.isEmpty()) {
            Http2StreamChannel[] owed = readComplete.toArray(new Http2StreamChannel[0]);
            readComplete.clear();
            for (Http2StreamChannel child : owed) {
                child.connectionReadComplete();
            }
        }
        ctx.fireChannelReadComplete();
        ctx.flush(); // credit returned and frames written while the children finished their reads
    }

    void readCompleteOwed(Http2StreamChannel child) {
        readComplete.add(child);
    }

    /** A stream the peer opened: its child channel, set up and registered, or null if refused. */
    private Http2StreamChannel openInbound(int id) {
        if (inboundStreamHandler == null) {
            ctx.write(new Http2ResetFrame(id, Http2Error.REFUSED_STREAM), ctx.voidPromise());
            return null;
        }
        Http2StreamChannel child = new Http2StreamChannel(this, id, true);
        children.put(id, child);
        try {
            child.pipeline().addLast(inboundStreamHandler);
        } catch (Throwable t) {
            // Say a handler that is not @Sharable, reused: this stream cannot be served, the others can.
            child.close();
            ctx.fireExceptionCaught(t);
            return null;
        }
        child.register();
        return child.isOpen() ? child : null;
    }

    /** A stream this side opens: its child, registered, with {@code handler} in its pipeline. Event loop only. */
    Http2StreamChannel openOutbound(ChannelHandler handler, java.util.function.Consumer<Http2StreamChannel> setup)
            throws Http2Exception {
        if (ctx == null || !ctx.channel().isActive()) {
            throw new IllegalStateException("the connection " + (ctx == null ? "has no Http2MultiplexHandler"
                    : ctx.channel() + " is not active"));
        }
        Http2StreamChannel child = new Http2StreamChannel(this, codec.reserveStreamId(), false);
        children.put(child.streamId(), child);
        setup.accept(child);
        child.pipeline().addLast(handler);
        child.register();
        return child;
    }

    /**
     * Whether a child may open its stream now: its id must be above every stream this side opened,
     * else the peer would take it as a protocol error (streams reserved in one order, started in another).
     */
    boolean mayOpen(int streamId) {
        if (streamId <= highestLocalOpened) {
            return false;
        }
        highestLocalOpened = streamId;
        return true;
    }

    /** A frame of a stream without a child (closed already): released, its credit back to the connection. */
    private void dropFrame(Object msg) {
        if (msg instanceof Http2DataFrame data) {
            if (data.flowControlled() > 0) {
                ctx.write(new Http2WindowUpdateFrame(data.streamId(), data.flowControlled()), ctx.voidPromise());
            }
        }
        ReferenceCountUtil.release(msg);
    }

    /**
     * Our streams above {@code lastStreamId} were not processed: the codec forgot them, and their
     * children hear it as a reset with REFUSED_STREAM (safe to retry on another connection).
     */
    private void closeRefused(int lastStreamId) {
        for (Http2StreamChannel child : new ArrayList<>(children.values())) {
            if (isLocal(child.streamId()) && child.streamId() > lastStreamId) {
                child.resetReceived(new Http2ResetFrame(child.streamId(), Http2Error.REFUSED_STREAM));
            }
        }
    }

    private boolean isLocal(int streamId) {
        return (streamId & 1) == (codec.config.server() ? 0 : 1);
    }

    void childClosed(Http2StreamChannel child) {
        children.remove(child.streamId(), child);
    }

    // ---------------------------------------------------------------- writability and the end

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof Http2StreamWritabilityChanged changed) {
            Http2StreamChannel child = children.get(changed.streamId());
            if (child != null) {
                child.writabilityChanged(STREAM_WRITABILITY_BIT, changed.writable());
            }
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        boolean writable = ctx.channel().isWritable();
        for (Http2StreamChannel child : new ArrayList<>(children.values())) {
            child.writabilityChanged(CONNECTION_WRITABILITY_BIT, writable);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closeAll();
        ctx.fireChannelInactive();
    }

    private void closeAll() {
        for (Http2StreamChannel child : new ArrayList<>(children.values())) {
            child.close();
        }
        children.clear();
        readComplete.clear();
    }
}
