package io.rill.microbench.redis;

import java.nio.charset.StandardCharsets;
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

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.redis.AggregateRedisMessage;
import io.rill.handler.codec.redis.RedisAggregator;
import io.rill.handler.codec.redis.RedisDecoder;
import io.rill.handler.codec.redis.RedisEncoder;
import io.rill.handler.codec.redis.RedisMessage;
import io.rill.handler.codec.redis.SimpleStringRedisMessage;

/**
 * A pipelined batch as {@code redis-benchmark -P 16} sends it, decoded and encoded per
 * microsecond (one operation is the whole batch): {@value #BATCH} {@code SET key:NNNNNN value}
 * commands, and their {@value #BATCH} {@code +OK} replies. Decoding goes through the decoder and the
 * aggregator in a pipeline, as a server has them, down to whole commands that are then released;
 * encoding writes the batch and flushes once. {@code NettyRedisBenchmark} (peers profile) does the
 * same with Netty 4.1's codec-redis:
 * {@code java -jar microbench/target/benchmarks.jar 'RedisCodecBenchmark|NettyRedisBenchmark' -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RedisCodecBenchmark {

    /** Commands per batch, as {@code -P 16}. */
    public static final int BATCH = 16;

    private EmbeddedChannel server;
    private EmbeddedChannel client;
    private EmbeddedChannel encoder;
    private ByteBuf commandsWire;
    private ByteBuf repliesWire;
    private final List<AggregateRedisMessage> commands = new ArrayList<>();

    /** The wire bytes of the batch of commands: {@code *3 $3 SET $10 key:NNNNNN $5 value}, 16 times. */
    public static byte[] commandBatch() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < BATCH; i++) {
            sb.append("*3\r\n$3\r\nSET\r\n$10\r\n").append(String.format("key:%06d", i * 7919)).append("\r\n$5\r\nvalue\r\n");
        }
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** The wire bytes of the replies: {@code +OK}, 16 times. */
    public static byte[] replyBatch() {
        return "+OK\r\n".repeat(BATCH).getBytes(StandardCharsets.US_ASCII);
    }

    @Setup
    public void setUp() {
        server = new EmbeddedChannel(new RedisDecoder(), new RedisAggregator());
        client = new EmbeddedChannel(new RedisDecoder(), new RedisAggregator());
        encoder = new EmbeddedChannel(RedisEncoder.INSTANCE);
        commandsWire = Unpooled.directBuffer().writeBytes(commandBatch());
        repliesWire = Unpooled.directBuffer().writeBytes(replyBatch());
        for (int i = 0; i < BATCH; i++) {
            commands.add(AggregateRedisMessage.command("SET", String.format("key:%06d", i * 7919), "value"));
        }
    }

    @TearDown
    public void tearDown() {
        server.finishAndReleaseAll();
        client.finishAndReleaseAll();
        encoder.finishAndReleaseAll();
        commandsWire.release();
        repliesWire.release();
        commands.forEach(AggregateRedisMessage::release);
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
        for (AggregateRedisMessage command : commands) {
            encoder.write(command.retain());
        }
        encoder.flush();
        return drainOutbound();
    }

    @Benchmark
    public int encodeReplies() {
        for (int i = 0; i < BATCH; i++) {
            RedisMessage ok = SimpleStringRedisMessage.OK;
            encoder.write(ok);
        }
        encoder.flush();
        return drainOutbound();
    }
}
