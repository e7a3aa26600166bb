package io.rill.example;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/**
 * Right after port-unification's gzip decoder: once the handlers after it have answered one
 * inflated chunk, flushes the channel from its tail. Some handlers hold answers until a flush
 * (the HTTP codec gathers pipelined responses into one buffer), and a read of compressed input
 * can inflate to many chunks: without a flush per chunk, the answers to all of them would pile
 * up where the outbound buffer, and so the decoder's back-pressure, cannot see them.
 */
final class FlushEachChunk implements ChannelHandler {

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ctx.fireChannelRead(msg);
        ctx.channel().flush(); // from the tail, through every handler that may be holding answers
    }
}
