package io.rill.example;

import java.util.List;

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
    public List<String> limits() {
        return List.of("nothing is kept: what is read is released at once; "
                + "a peer that never reads costs nothing, there is nothing to answer");
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
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
