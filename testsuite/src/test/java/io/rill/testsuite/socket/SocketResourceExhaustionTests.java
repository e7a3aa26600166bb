package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ResourceExhaustedEvent;

/**
 * A connection Rill closes because memory ran out (what reset the non-reading HTTP clients of
 * issue 13 when the server buffered their answers without bound: the direct-memory allocation
 * of the next buffer failed, the application closed the channel, and nothing said why) is
 * reported: a warning line naming the channel and the reason, and a {@link ResourceExhaustedEvent}
 * a handler can observe before the close.
 */
abstract class SocketResourceExhaustionTests extends AbstractSocketTest {

    @Test
    void aChannelWhoseBufferAllocationFailsIsClosedWithAWarningAndAnEvent() throws Exception {
        List<String> warnings = new CopyOnWriteArrayList<>();
        Logger jul = Logger.getLogger("io.rill.channel.ResourceExhaustion");
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                warnings.add(record.getLevel() + " " + record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        jul.addHandler(capture);
        try {
            BlockingQueue<Object> events = new LinkedBlockingQueue<>();
            ChannelHandler failingAllocation = new ChannelHandler() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    ReferenceCountUtil.release(msg);
                    // What ByteBuffer.allocateDirect throws at -XX:MaxDirectMemorySize.
                    throw new OutOfMemoryError("Cannot reserve 65536 bytes of direct buffer memory");
                }

                @Override
                public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                    // An application that ignores errors: the channel must still close, and say why.
                }

                @Override
                public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                    events.add(evt);
                }
            };
            BlockingQueue<Channel> accepted = startServerCollectingChildren(serverBootstrap(), failingAllocation);
            Channel client = connect(startedServer, new ByteCollector());
            Channel child = take(accepted);
            await(client.writeAndFlush(SocketHalfClosureTests.ascii(client, "hello")));
            await(child.closeFuture());
            ResourceExhaustedEvent event = (ResourceExhaustedEvent) take(events);
            assertTrue(event.reason().contains("out of memory"), event.reason());
            assertTrue(event.cause() instanceof OutOfMemoryError);
            assertEquals(1, warnings.stream().filter(w -> w.startsWith("WARNING Closing") && w.contains("out of memory")
                    && w.contains("MaxDirectMemorySize")).count(), "one warning line: " + warnings);
        } finally {
            jul.removeHandler(capture);
        }
    }
}
