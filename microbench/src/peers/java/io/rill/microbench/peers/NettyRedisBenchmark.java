package io.rill.microbench.peers;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.RedisArrayAggregator;
import io.netty.handler.codec.redis.RedisBulkStringAggregator;
import io.netty.handler.codec.redis.RedisDecoder;
import io.netty.handler.codec.redis.RedisEncoder;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import io.netty.util.CharsetUtil;
import io.netty.util.ReferenceCountUtil;
import io.rill.microbench.redis.RedisCodecBenchmark;

/**
 * {@link RedisCodecBenchmark} over Netty 4.1's codec-redis (RESP2 only), on the same bytes: its
 * decoder with both aggregators, as a Netty server has them, and its encoder, each in an
 * {@code EmbeddedChannel} as Rill's are. Operations per microsecond, one operation a batch of
 * {@value RedisCodecBenchmark#BATCH}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class NettyRedisBenchmark {

    private EmbeddedChannel server;
    private EmbeddedChannel client;
    private EmbeddedChannel encoder;
    private ByteBuf commandsWire;
    private ByteBuf repliesWire;
    private final List<ArrayRedisMessage> commands = new ArrayList<>();

    @Setup
    public void setUp() {
        server = new EmbeddedChannel(new RedisDecoder(), new RedisBulkStringAggregator(), new RedisArrayAggregator());
        client = new EmbeddedChannel(new RedisDecoder(), new RedisBulkStringAggregator(), new RedisArrayAggregator());
        encoder = new EmbeddedChannel(new RedisEncoder());
        commandsWire = Unpooled.directBuffer().writeBytes(RedisCodecBenchmark.commandBatch());
        repliesWire = Unpooled.directBuffer().writeBytes(RedisCodecBenchmark.replyBatch());
        for (int i = 0; i < RedisCodecBenchmark.BATCH; i++) {
            List<RedisMessage> words = new ArrayList<>();
            for (String word : new String[] {"SET", String.format("key:%06d", i * 7919), "value"}) {
                words.add(new FullBulkStringRedisMessage(Unpooled.copiedBuffer(word, CharsetUtil.US_ASCII)));
            }
            commands.add(new ArrayRedisMessage(words));
        }
    }

    @TearDown
    public void tearDown() {
        server.finishAndReleaseAll();
        client.finishAndReleaseAll();
        encoder.finishAndReleaseAll();
        commandsWire.release();
        repliesWire.release();
        commands.forEach(ArrayRedisMessage::release);
    }

    private static int drain(EmbeddedChannel channel) {
        int n = 0;
        for (Object m; (m = channel.readInbound()) != null; n++) {
            ReferenceCountUtil.release(m);
        }
        return n;
    }

    private int drainOutbound() {
        int bytes = 0;
        for (Object m; (m = encoder.readOutbound()) != null; ) {
            bytes += ((ByteBuf) m).readableBytes();
            ReferenceCountUtil.release(m);
        }
        return bytes;
    }

    @Benchmark
    public int decodeCommands() {
        server.writeInbound(commandsWire.retainedDuplicate());
        return drain(server);
    }

    @Benchmark
    public int decodeReplies() {
        client.writeInbound(repliesWire.retainedDuplicate());
        return drain(client);
    }

    @Benchmark
    public int encodeCommands() {
        for (ArrayRedisMessage command : commands) {
            encoder.write(command.retain());
        }
        encoder.flush();
        return drainOutbound();
    }

    @Benchmark
    public int encodeReplies() {
        for (int i = 0; i < RedisCodecBenchmark.BATCH; i++) {
            encoder.write(new SimpleStringRedisMessage("OK"));
        }
        encoder.flush();
        return drainOutbound();
    }
}
