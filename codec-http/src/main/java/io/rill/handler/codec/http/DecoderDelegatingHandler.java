package io.rill.handler.codec.http;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.ByteToMessageDecoder;

/**
 * A codec that is one handler in the pipeline but decodes with an inner decoder: every inbound
 * event the decoder cares about goes to it, with this handler's context. The client and server
 * codecs add their outbound side and the bookkeeping that needs both directions.
 */
abstract class DecoderDelegatingHandler implements ChannelHandler {

    /** The inner decoder; the same object for the handler's whole life. */
    abstract ByteToMessageDecoder decoder();

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        decoder().handlerAdded(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        decoder().handlerRemoved(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        decoder().channelRead(ctx, msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        decoder().channelReadComplete(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        decoder().channelInactive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        decoder().userEventTriggered(ctx, evt);
    }
}
