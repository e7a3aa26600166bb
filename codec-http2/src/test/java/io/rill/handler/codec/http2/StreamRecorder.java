package io.rill.handler.codec.http2;

import java.util.ArrayList;
import java.util.List;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/**
 * The last handler of a stream channel in tests: records what reaches it as short strings
 * ("HEADERS /path END", "DATA 100", "COMPLETE", ...) and releases the frames it reads.
 */
class StreamRecorder implements ChannelHandler {

    final List<String> events = new ArrayList<>();
    Http2StreamChannel channel;

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = (Http2StreamChannel) ctx.channel();
        events.add("ACTIVE");
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Http2HeadersFrame h) {
            CharSequence what = h.headers().path() != null ? h.headers().path() : h.headers().status();
            events.add("HEADERS " + what + (h.endStream() ? " END" : ""));
        } else if (msg instanceof Http2DataFrame d) {
            events.add("DATA " + d.content().readableBytes() + (d.endStream() ? " END" : ""));
            d.release();
        }
        onRead(ctx, msg);
    }

    /** For subclasses: answer what was read. */
    void onRead(ChannelHandlerContext ctx, Object msg) {
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        events.add("COMPLETE");
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        events.add(evt instanceof Http2ResetFrame r ? "RESET " + r.error() : "EVENT " + evt);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        events.add("WRITABLE " + ctx.channel().isWritable());
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        events.add("INACTIVE");
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        events.add("EXCEPTION " + cause.getMessage());
    }

    /** The events since the last call. */
    List<String> take() {
        List<String> taken = new ArrayList<>(events);
        events.clear();
        return taken;
    }
}
