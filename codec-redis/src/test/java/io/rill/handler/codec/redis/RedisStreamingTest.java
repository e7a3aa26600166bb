package io.rill.handler.codec.redis;

import static io.rill.handler.codec.redis.RedisDecodeRun.ascii;
import static io.rill.handler.codec.redis.RedisDecodeRun.everyWay;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;

/** RESP3 streamed strings and aggregates and attributes inside aggregates, fed every way. */
class RedisStreamingTest {

    /** What {@code streamed} aggregates to, fed every way, is what {@code counted} aggregates to. */
    private static void sameAs(String streamed, String counted) {
        RedisDecodeRun.Result got = everyWay(ascii(streamed));
        RedisDecodeRun.Result expected = everyWay(ascii(counted));
        assertTrue(got.errors().isEmpty(), got.errors().toString());
        assertEquals(expected.messages(), got.messages(), streamed);
    }

    @Test
    void aStreamedStringAggregatesToTheBulkStringOfItsChunks() {
        sameAs("$?\r\n;4\r\nHell\r\n;7\r\no world\r\n;0\r\n", "$11\r\nHello world\r\n");
        sameAs("$?\r\n;0\r\n", "$0\r\n\r\n");
        sameAs("$?\r\n;2\r\n\r\n\r\n;0\r\n+OK\r\n", "$2\r\n\r\n\r\n+OK\r\n");
    }

    @Test
    void streamedAggregatesAggregateToTheirCountedForms() {
        sameAs("*?\r\n:1\r\n$?\r\n;1\r\nx\r\n;0\r\n.\r\n", "*2\r\n:1\r\n$1\r\nx\r\n");
        sameAs("%?\r\n+a\r\n:1\r\n+b\r\n*?\r\n.\r\n.\r\n", "%2\r\n+a\r\n:1\r\n+b\r\n*0\r\n");
        sameAs("~?\r\n.\r\n", "~0\r\n");
        sameAs("*2\r\n*?\r\n~?\r\n:1\r\n.\r\n.\r\n:2\r\n", "*2\r\n*1\r\n~1\r\n:1\r\n:2\r\n");
    }

    @Test
    void anAttributeInsideAnAggregateComesOutOnItsOwnAheadOfTheReplyAndIsNoElementOfIt() {
        sameAs("*2\r\n|1\r\n+ttl\r\n:3600\r\n:1\r\n:2\r\n", "|1\r\n+ttl\r\n:3600\r\n*2\r\n:1\r\n:2\r\n");
        sameAs("*?\r\n:1\r\n|0\r\n:2\r\n.\r\n", "|0\r\n*2\r\n:1\r\n:2\r\n");
        sameAs("%1\r\n+k\r\n|1\r\n+a\r\n|1\r\n+b\r\n+c\r\n+d\r\n+v\r\n", "|1\r\n+b\r\n+c\r\n|1\r\n+a\r\n+d\r\n%1\r\n+k\r\n+v\r\n");
    }

    @Test
    void theDecoderAloneStreamsHeadersElementsAndTheEnd() {
        EmbeddedChannel ch = new EmbeddedChannel(new RedisDecoder());
        ch.writeInbound(Unpooled.copiedBuffer(ascii("*?\r\n$?\r\n;2\r\nab\r\n;0\r\n.\r\n")));
        List<Object> got = new ArrayList<>();
        for (Object m; (m = ch.readInbound()) != null; ) {
            got.add(m);
        }
        assertEquals(new AggregateHeaderRedisMessage(RedisAggregateType.ARRAY, AggregateHeaderRedisMessage.STREAMED_LENGTH),
                got.get(0));
        assertEquals(BulkStringHeaderRedisMessage.STREAMED, got.get(1));
        assertEquals("ab", ((BulkStringRedisContent) got.get(2)).content().toString(java.nio.charset.StandardCharsets.US_ASCII));
        assertTrue(((BulkStringRedisContent) got.get(3)).isLast());
        assertEquals(StreamEndRedisMessage.INSTANCE, got.get(4));
        assertEquals(5, got.size());
        got.forEach(ReferenceCountUtil::release);
        ch.finishAndReleaseAll();
    }

    @Test
    void theEncoderWritesStreamedAggregateFramingButNoLooseStreamedStringPieces() {
        assertEquals("*?\r\n", new String(RedisDecodeRun.encode(
                new AggregateHeaderRedisMessage(RedisAggregateType.ARRAY, AggregateHeaderRedisMessage.STREAMED_LENGTH))));
        assertEquals(".\r\n", new String(RedisDecodeRun.encode(StreamEndRedisMessage.INSTANCE)));
        assertThrows(IllegalArgumentException.class, () -> RedisEncoder.encodedSize(BulkStringHeaderRedisMessage.STREAMED));
    }
}
