package io.rill.example;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.redis.RedisAggregator;
import io.rill.handler.codec.redis.RedisDecoder;
import io.rill.handler.codec.redis.RedisEncoder;
import io.rill.handler.codec.redis.RedisLimits;

/**
 * The redis-server example's fast path answers exactly as the generic decoder path does, however the
 * bytes arrive, and hands over to it at the first thing it does not read itself.
 */
class RedisCommandReaderTest {

    private static final RedisLimits LIMITS = RedisLimits.DEFAULT.withMaxBulkLength(1 << 20);

    private static String served(List<byte[]> pieces, boolean fast) {
        RedisServer.Session session = new RedisServer.Session(new RedisServer.Store(1000));
        EmbeddedChannel ch = fast
                ? new EmbeddedChannel(new RedisCommandReader(session, LIMITS), new RedisDecoder(LIMITS, true),
                        new RedisAggregator(LIMITS), RedisEncoder.INSTANCE, session)
                : new EmbeddedChannel(new RedisDecoder(LIMITS, true), new RedisAggregator(LIMITS), RedisEncoder.INSTANCE,
                        session);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : pieces) {
            ch.writeInbound(Unpooled.copiedBuffer(p));
            for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
                out.writeBytes(ByteBufUtil.getBytes(b));
                b.release();
            }
        }
        ch.finishAndReleaseAll();
        return out.toString(ISO_8859_1);
    }

    private static String command(String... words) {
        StringBuilder s = new StringBuilder("*" + words.length + "\r\n");
        for (String w : words) {
            s.append('$').append(w.length()).append("\r\n").append(w).append("\r\n");
        }
        return s.toString();
    }

    @Test
    void pipelinedCommandsAreAnsweredAsTheGenericPathAnswersThemHoweverTheyArrive() {
        String batch = command("SET", "k", "v\r\n1") + command("get", "k") + command("GET", "absent")
                + command("SET", "n", "41") + command("INCR", "n") + command("SET", "k", "x", "XX") + command("GET", "k")
                + command("DEL", "k", "n") + command("PING") + command("GET", "kk", "extra")
                + "PING\r\n" + command("GET", "n"); // an inline command: the generic decoder takes over
        byte[] bytes = batch.getBytes(ISO_8859_1);
        String expected = served(List.of(bytes), false);
        assertEquals("+OK\r\n$4\r\nv\r\n1\r\n$-1\r\n+OK\r\n:42\r\n+OK\r\n$1\r\nx\r\n:2\r\n+PONG\r\n"
                + "-ERR wrong number of arguments for 'get' command\r\n+PONG\r\n$-1\r\n", expected);
        List<List<byte[]>> ways = new ArrayList<>();
        ways.add(List.of(bytes));
        List<byte[]> single = new ArrayList<>();
        for (byte b : bytes) {
            single.add(new byte[] {b});
        }
        ways.add(single);
        for (int i = 1; i < bytes.length; i++) {
            ways.add(List.of(Arrays.copyOfRange(bytes, 0, i), Arrays.copyOfRange(bytes, i, bytes.length)));
        }
        Random random = new Random(3);
        for (int n = 0; n < 20; n++) {
            List<byte[]> pieces = new ArrayList<>();
            for (int at = 0; at < bytes.length; ) {
                int length = Math.min(bytes.length - at, 1 + random.nextInt(30));
                pieces.add(Arrays.copyOfRange(bytes, at, at + length));
                at += length;
            }
            ways.add(pieces);
        }
        for (List<byte[]> way : ways) {
            assertEquals(expected, served(way, true), way.size() + " pieces");
        }
    }

    @Test
    void keysAreBinaryAndMayBeLongerThanTheLookupProbe() {
        String longKey = "k".repeat(RedisKey.PROBE_BYTES + 1);
        String binaryKey = "\u00ff\u0000\r\n";
        String batch = command("SET", longKey, "long") + command("SET", binaryKey, "bin") + command("SET", longKey, "again")
                + command("GET", longKey) + command("GET", binaryKey) + command("GET", "\u00ff\u0000\r") + command("DEL", longKey)
                + command("GET", longKey);
        byte[] bytes = batch.getBytes(ISO_8859_1);
        String expected = "+OK\r\n+OK\r\n+OK\r\n$5\r\nagain\r\n$3\r\nbin\r\n$-1\r\n:1\r\n$-1\r\n";
        assertEquals(expected, served(List.of(bytes), false));
        assertEquals(expected, served(List.of(bytes), true));
    }

    @Test
    void malformedInputStillGetsTheGenericDecodersProtocolError() {
        String bad = command("SET", "k", "v") + "*1\r\n$3\r\nGETX\r\n";
        assertEquals(served(List.of(bad.getBytes(ISO_8859_1)), false), served(List.of(bad.getBytes(ISO_8859_1)), true));
        String huge = "*2\r\n$3\r\nGET\r\n$99999999999\r\n";
        assertEquals(served(List.of(huge.getBytes(ISO_8859_1)), false), served(List.of(huge.getBytes(ISO_8859_1)), true));
    }

    @Test
    void aPipelinedGetOrSetAllocatesLittleMoreThanItsKey() {
        // The leak detector's access records (PARANOID in tests) would be most of what is counted.
        io.rill.util.ResourceLeakDetector.Level level = io.rill.util.ResourceLeakDetector.level();
        io.rill.util.ResourceLeakDetector.setLevel(io.rill.util.ResourceLeakDetector.Level.DISABLED);
        try {
            long perRequest = allocatedPerRequest();
            assertTrue(perRequest < 48, perRequest + " bytes allocated per request");
        } finally {
            io.rill.util.ResourceLeakDetector.setLevel(level);
        }
    }

    private static long allocatedPerRequest() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory
                .getThreadMXBean();
        RedisServer.Session session = new RedisServer.Session(new RedisServer.Store(1000));
        EmbeddedChannel ch = new EmbeddedChannel(new RedisCommandReader(session, LIMITS), new RedisDecoder(LIMITS, true),
                new RedisAggregator(LIMITS), RedisEncoder.INSTANCE, session);
        int perBatch = 500;
        byte[] batch = (command("SET", "key:000000000042", "xxx") + command("GET", "key:000000000042")).repeat(perBatch)
                .getBytes(ISO_8859_1);
        long before = 0;
        for (int round = 0; round < 40; round++) { // the last 20 measured, after the JIT had its chance
            if (round == 20) {
                before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
            }
            ch.writeInbound(Unpooled.wrappedBuffer(batch));
            for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
                b.release();
            }
        }
        long perRequest = (threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before) / (20L * 2 * perBatch);
        ch.finishAndReleaseAll();
        // SET's 3-byte value (24 bytes, so 12 a request); a key string per request cost ~56 more, the generic path ~490.
        return perRequest;
    }
}
