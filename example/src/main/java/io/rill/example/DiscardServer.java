package io.rill.example;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/** Reads and drops everything (RFC 863); handy as a sink when measuring a client's send rate. */
final class DiscardServer implements Example {

    @Override
    public String name() {
        return "discard-server";
    }

    @Override
    public String description() {
        return "reads and discards everything it receives (RFC 863)";
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        options.rejectUnknown();
        ServerRunner.run(options, name(), new Discard());
    }

    @ChannelHandler.Sharable
    private static final class Discard implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
