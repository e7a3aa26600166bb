package io.rill.example;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.util.InternalLogger;

/** Writes back every byte it receives; the smallest useful server, and Rill's main example. */
final class EchoServer implements Example {

    @Override
    public String name() {
        return "echo-server";
    }

    @Override
    public String description() {
        return "echoes every byte back to its sender (try: echo-client, or nc HOST PORT)";
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        options.rejectUnknown();
        ServerRunner.run(options, name(), new EchoHandler());
    }

    /** The buffer read is the buffer written: no copy; one flush per read burst, not per read. */
    @ChannelHandler.Sharable
    static final class EchoHandler implements ChannelHandler {
        private static final InternalLogger LOG = InternalLogger.get(EchoHandler.class);

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("Closing {} after an error", ctx.channel(), cause);
            ctx.close();
        }
    }
}
