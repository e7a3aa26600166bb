package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.redis.AggregateRedisMessage;
import io.rill.handler.codec.redis.ErrorRedisMessage;
import io.rill.handler.codec.redis.FullBulkStringRedisMessage;
import io.rill.handler.codec.redis.RedisAggregateType;
import io.rill.handler.codec.redis.RedisAggregator;
import io.rill.handler.codec.redis.RedisCodecException;
import io.rill.handler.codec.redis.RedisDecoder;
import io.rill.handler.codec.redis.RedisEncoder;
import io.rill.handler.codec.redis.RedisLimits;
import io.rill.handler.codec.redis.RedisMessage;

/**
 * The Redis codec behind a real transport: pipelined commands with values large enough to arrive
 * in many reads (so the decoder streams them and the aggregator joins them) come back whole and in
 * order; malformed input gets {@code -ERR} and the connection closes (docs/security-cases.md,
 * REDIS-12).
 */
abstract class SocketRedisTests extends AbstractSocketTest {

    /** Answers each command with the command itself; answers a protocol error with -ERR, then closes. */
    @ChannelHandler.Sharable
    static final class CommandEcho implements ChannelHandler {
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
            if (cause instanceof RedisCodecException) {
                ctx.writeAndFlush(new ErrorRedisMessage("ERR Protocol error"));
            }
            ctx.close();
        }
    }

    /** Puts every reply it receives on a queue. */
    static final class Replies implements ChannelHandler {
        final BlockingQueue<RedisMessage> received = new LinkedBlockingQueue<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            received.add((RedisMessage) msg);
        }
    }

    private Channel startRedisEcho() {
        return startServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new RedisDecoder(RedisLimits.DEFAULT, true), new RedisAggregator(),
                        RedisEncoder.INSTANCE, new CommandEcho());
            }
        });
    }

    private Channel connectClient(Channel server, Replies replies) {
        return connect(server, new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new RedisDecoder(), new RedisAggregator(), RedisEncoder.INSTANCE, replies);
            }
        });
    }

    @Test
    void pipelinedCommandsWithLargeValuesComeBackWholeAndInOrder() throws Exception {
        Channel server = startRedisEcho();
        Replies replies = new Replies();
        Channel client = connectClient(server, replies);
        Random random = new Random(0x4ed15);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            byte[] value = new byte[i % 8 == 0 ? 200_000 + random.nextInt(100_000) : random.nextInt(300)];
            random.nextBytes(value);
            values.add(value);
            client.write(new AggregateRedisMessage(RedisAggregateType.ARRAY, List.of(
                    FullBulkStringRedisMessage.of("SET"), FullBulkStringRedisMessage.of("key:" + i),
                    new FullBulkStringRedisMessage(Unpooled.wrappedBuffer(value)))));
            if (random.nextInt(4) == 0) {
                client.flush();
            }
        }
        client.flush();
        for (int i = 0; i < values.size(); i++) {
            AggregateRedisMessage reply = assertInstanceOf(AggregateRedisMessage.class, take(replies.received));
            try {
                assertEquals("key:" + i, ((FullBulkStringRedisMessage) reply.children().get(1)).text(), transport.toString());
                ByteBuf value = ((FullBulkStringRedisMessage) reply.children().get(2)).content();
                assertArrayEquals(values.get(i), ByteBufUtil.getBytes(value), transport + ": value " + i);
            } finally {
                reply.release();
            }
        }
    }

    @Test
    void malformedInputGetsAnErrorAndTheConnectionCloses() throws Exception {
        Channel server = startRedisEcho();
        Replies replies = new Replies();
        Channel client = connectClient(server, replies);
        client.writeAndFlush(Unpooled.copiedBuffer("PING\r\n*1\r\n$-5\r\nPING\r\n", StandardCharsets.US_ASCII));
        AggregateRedisMessage ping = assertInstanceOf(AggregateRedisMessage.class, take(replies.received));
        assertEquals("PING", ((FullBulkStringRedisMessage) ping.children().get(0)).text());
        ping.release();
        assertInstanceOf(ErrorRedisMessage.class, take(replies.received));
        assertTrue(client.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS), transport + ": closed");
        assertTrue(replies.received.isEmpty(), "nothing after the bad input was answered");
    }
}
