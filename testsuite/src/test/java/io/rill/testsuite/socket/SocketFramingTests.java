package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.SimpleChannelInboundHandler;
import io.rill.handler.codec.LengthFieldBasedFrameDecoder;
import io.rill.handler.codec.LengthFieldPrepender;
import io.rill.handler.codec.LineBasedFrameDecoder;
import io.rill.handler.codec.TooLongFrameException;
import io.rill.handler.codec.string.LineEncoder;
import io.rill.handler.codec.string.LineSeparator;
import io.rill.handler.codec.string.StringDecoder;
import io.rill.handler.codec.string.StringEncoder;

/**
 * Frame decoders behind a real transport: the peer writes its frames cut at random points, the
 * transport delivers them in whatever reads it likes, and the frames still come out whole and
 * in order. An oversized line is reported and the connection goes on.
 */
abstract class SocketFramingTests extends AbstractSocketTest {

    /** Echoes each frame (or line) it receives; answers an oversized line with "ERR". */
    @ChannelHandler.Sharable
    static final class FrameEcho implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg instanceof String s ? s.toUpperCase() : msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof TooLongFrameException) {
                ctx.writeAndFlush("ERR too long");
            } else {
                ctx.close();
            }
        }
    }

    /** Puts every message it receives on a queue (frames as byte arrays, released). */
    static final class Collect extends SimpleChannelInboundHandler<Object> {
        final BlockingQueue<Object> received = new LinkedBlockingQueue<>();

        Collect() {
            super(Object.class);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Object msg) {
            received.add(msg instanceof ByteBuf b ? ByteBufUtil.getBytes(b) : msg);
        }
    }

    /** Writes {@code wire} in random pieces (1 byte to 8 KiB), flushing some of them. */
    private static void writeCutAtRandom(Channel ch, byte[] wire, Random random) {
        for (int off = 0, n; off < wire.length; off += n) {
            n = Math.min(wire.length - off, 1 + random.nextInt(random.nextBoolean() ? 7 : 8192));
            ch.write(ch.alloc().buffer(n).writeBytes(wire, off, n));
            if (random.nextInt(3) == 0) {
                ch.flush();
            }
        }
        ch.flush();
    }

    @Test
    void lengthFieldFramesCutAtRandomComeBackWholeAndInOrder() throws Exception {
        Channel server = startServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(1 << 20, 0, 4, 0, 4),
                        new LengthFieldPrepender(4), new FrameEcho());
            }
        });
        Collect collect = new Collect();
        Channel client = connect(server, new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(1 << 20, 0, 4, 0, 4), collect);
            }
        });
        Random random = new Random(0xf4a3e);
        List<byte[]> frames = new ArrayList<>();
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (int i = 0; i < 60; i++) {
            byte[] frame = new byte[random.nextInt(i % 10 == 0 ? 100_000 : 300)];
            random.nextBytes(frame);
            frames.add(frame);
            wire.write(frame.length >>> 24);
            wire.write(frame.length >>> 16);
            wire.write(frame.length >>> 8);
            wire.write(frame.length);
            wire.writeBytes(frame);
        }
        writeCutAtRandom(client, wire.toByteArray(), random);
        for (int i = 0; i < frames.size(); i++) {
            assertArrayEquals(frames.get(i), (byte[]) take(collect.received), transport + ": frame " + i);
        }
    }

    @Test
    void linesCutAtRandomAreEchoedAndAnOversizedLineDoesNotEndTheConnection() throws Exception {
        Channel server = startServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new LineBasedFrameDecoder(1024), new StringDecoder(StandardCharsets.UTF_8),
                        new LineEncoder(LineSeparator.UNIX, StandardCharsets.UTF_8), new FrameEcho());
            }
        });
        Collect collect = new Collect();
        Channel client = connect(server, new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new LineBasedFrameDecoder(1024), new StringDecoder(StandardCharsets.UTF_8),
                        new StringEncoder(StandardCharsets.UTF_8), collect);
            }
        });
        Random random = new Random(0x11e5);
        StringBuilder text = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            if (i == 100) {
                text.append("x".repeat(5000)).append("\r\n");
                expected.add("ERR too long");
                continue;
            }
            String line = "line " + i + " ünïcödé " + "-".repeat(random.nextInt(200));
            text.append(line).append(i % 2 == 0 ? "\n" : "\r\n");
            expected.add(line.toUpperCase());
        }
        writeCutAtRandom(client, text.toString().getBytes(StandardCharsets.UTF_8), random);
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), take(collect.received), transport + ": line " + i);
        }
    }
}
