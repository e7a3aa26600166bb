package io.rill.handler.codec.redis;

import static io.rill.handler.codec.redis.RedisDecodeRun.ascii;
import static io.rill.handler.codec.redis.RedisDecodeRun.encode;
import static io.rill.handler.codec.redis.RedisDecodeRun.everyWay;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;

class RedisCodecTest {

    /** Encodes a fresh message, expects {@code wire}, decodes it every way and expects the message back alone. */
    private static void roundTrip(Supplier<RedisMessage> message, String wire) {
        RedisMessage expected = message.get();
        String description = expected.toString();
        ReferenceCountUtil.release(expected);
        assertArrayEquals(ascii(wire), encode(message.get()), () -> "wire bytes of " + description);
        RedisDecodeRun.Result result = everyWay(ascii(wire));
        assertTrue(result.errors().isEmpty(), () -> "errors: " + result.errors());
        assertEquals(List.of(description), result.messages());
    }

    @Test
    void resp2Types() {
        roundTrip(() -> SimpleStringRedisMessage.OK, "+OK\r\n");
        roundTrip(() -> new SimpleStringRedisMessage(""), "+\r\n");
        roundTrip(() -> new ErrorRedisMessage("ERR unknown command 'X'"), "-ERR unknown command 'X'\r\n");
        roundTrip(() -> IntegerRedisMessage.of(0), ":0\r\n");
        roundTrip(() -> IntegerRedisMessage.of(-1), ":-1\r\n");
        roundTrip(() -> IntegerRedisMessage.of(1023), ":1023\r\n");
        roundTrip(() -> IntegerRedisMessage.of(Long.MAX_VALUE), ":9223372036854775807\r\n");
        roundTrip(() -> IntegerRedisMessage.of(Long.MIN_VALUE), ":-9223372036854775808\r\n");
        roundTrip(() -> FullBulkStringRedisMessage.of("hello"), "$5\r\nhello\r\n");
        roundTrip(() -> FullBulkStringRedisMessage.of(""), "$0\r\n\r\n");
        roundTrip(() -> new FullBulkStringRedisMessage(Unpooled.copiedBuffer(ascii("a\r\nb"))), "$4\r\na\r\nb\r\n");
        roundTrip(() -> NullRedisMessage.NULL_BULK_STRING, "$-1\r\n");
        roundTrip(() -> NullRedisMessage.NULL_ARRAY, "*-1\r\n");
        roundTrip(() -> AggregateRedisMessage.command("SET", "key", "value"),
                "*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$5\r\nvalue\r\n");
        roundTrip(() -> AggregateRedisMessage.array(), "*0\r\n");
        roundTrip(() -> AggregateRedisMessage.array(IntegerRedisMessage.of(1), AggregateRedisMessage.array(
                SimpleStringRedisMessage.PONG, NullRedisMessage.NULL_BULK_STRING), AggregateRedisMessage.array()),
                "*3\r\n:1\r\n*2\r\n+PONG\r\n$-1\r\n*0\r\n");
    }

    @Test
    void resp3Types() {
        roundTrip(() -> NullRedisMessage.NULL, "_\r\n");
        roundTrip(() -> new DoubleRedisMessage(1.5), ",1.5\r\n");
        roundTrip(() -> new DoubleRedisMessage(-0.001), ",-0.001\r\n");
        roundTrip(() -> new DoubleRedisMessage(1e300), ",1.0E300\r\n");
        roundTrip(() -> new DoubleRedisMessage(Double.POSITIVE_INFINITY), ",inf\r\n");
        roundTrip(() -> new DoubleRedisMessage(Double.NEGATIVE_INFINITY), ",-inf\r\n");
        roundTrip(() -> new DoubleRedisMessage(Double.NaN), ",nan\r\n");
        roundTrip(() -> BooleanRedisMessage.TRUE, "#t\r\n");
        roundTrip(() -> BooleanRedisMessage.FALSE, "#f\r\n");
        roundTrip(() -> new BigNumberRedisMessage(new BigInteger("-3492890328409238509324850943850943825024385")),
                "(-3492890328409238509324850943850943825024385\r\n");
        roundTrip(() -> new VerbatimStringRedisMessage("txt", "Some string"), "=15\r\ntxt:Some string\r\n");
        roundTrip(() -> new BulkErrorRedisMessage("SYNTAX invalid\r\nsyntax"), "!22\r\nSYNTAX invalid\r\nsyntax\r\n");
        roundTrip(() -> new AggregateRedisMessage(RedisAggregateType.MAP, List.of(new SimpleStringRedisMessage("first"),
                IntegerRedisMessage.of(1), FullBulkStringRedisMessage.of("second"), BooleanRedisMessage.TRUE)),
                "%2\r\n+first\r\n:1\r\n$6\r\nsecond\r\n#t\r\n");
        roundTrip(() -> new AggregateRedisMessage(RedisAggregateType.SET, List.of(new SimpleStringRedisMessage("a"),
                NullRedisMessage.NULL)), "~2\r\n+a\r\n_\r\n");
        roundTrip(() -> new AggregateRedisMessage(RedisAggregateType.PUSH, List.of(FullBulkStringRedisMessage.of("message"),
                FullBulkStringRedisMessage.of("ch"), FullBulkStringRedisMessage.of("hi"))),
                ">3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$2\r\nhi\r\n");
        roundTrip(() -> new AggregateRedisMessage(RedisAggregateType.ATTRIBUTE, List.of(new SimpleStringRedisMessage("ttl"),
                IntegerRedisMessage.of(3600))), "|1\r\n+ttl\r\n:3600\r\n");
    }

    @Test
    void lenientSpellingsOfNumbersAreReadAsTheirValue() {
        RedisDecodeRun.Result result = everyWay(ascii(":+7\r\n,+inf\r\n,10\r\n,.5e-3\r\n(+12\r\n"));
        assertEquals(List.of("IntegerRedisMessage[value=7]", "DoubleRedisMessage[value=Infinity]",
                "DoubleRedisMessage[value=10.0]", "DoubleRedisMessage[value=5.0E-4]", "BigNumberRedisMessage[digits=+12]"),
                result.messages());
    }

    @Test
    void aPipelinedBatchDecodesToOneMessagePerCommand() {
        StringBuilder wire = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            wire.append("*3\r\n$3\r\nSET\r\n$").append(String.valueOf(i).length() + 4).append("\r\nkey:").append(i)
                    .append("\r\n$5\r\nvalue\r\n");
            AggregateRedisMessage command = AggregateRedisMessage.command("SET", "key:" + i, "value");
            expected.add(command.toString());
            command.release();
        }
        RedisDecodeRun.Result result = everyWay(ascii(wire.toString()));
        assertEquals(expected, result.messages());
    }

    @Test
    void aBulkStringThatArrivesInPiecesIsStreamedThenJoined() {
        EmbeddedChannel channel = new EmbeddedChannel(new RedisDecoder());
        channel.writeInbound(Unpooled.copiedBuffer(ascii("$11\r\nhel")));
        channel.writeInbound(Unpooled.copiedBuffer(ascii("lo wor")));
        channel.writeInbound(Unpooled.copiedBuffer(ascii("ld\r\n")));
        assertEquals(new BulkStringHeaderRedisMessage(11), channel.readInbound());
        StringBuilder joined = new StringBuilder();
        boolean last = false;
        for (Object m; (m = channel.readInbound()) != null; ) {
            BulkStringRedisContent piece = (BulkStringRedisContent) m;
            assertTrue(!last, "nothing after the last piece");
            joined.append(piece.content().toString(java.nio.charset.StandardCharsets.US_ASCII));
            last = piece.isLast();
            piece.release();
        }
        assertEquals("hello world", joined.toString());
        assertTrue(last);
        channel.finish();
    }

    @Test
    void inlineCommandsAreSplitLikeRedisDoes() {
        RedisDecodeRun.Result result = everyWay(ascii("PING\r\n\r\nSET k \"a b\\x41\\n\"\nECHO 'it\\'s'   x\r\n"),
                RedisLimits.DEFAULT, true);
        assertTrue(result.errors().isEmpty(), () -> "errors: " + result.errors());
        List<String> expected = new ArrayList<>();
        for (AggregateRedisMessage m : List.of(AggregateRedisMessage.command("PING"),
                AggregateRedisMessage.command("SET", "k", "a bA\n"), AggregateRedisMessage.command("ECHO", "it's", "x"))) {
            expected.add(m.toString());
            m.release();
        }
        assertEquals(expected, result.messages());
    }

    @Test
    void anInlineCommandAndAResp2CommandMayFollowEachOther() {
        RedisDecodeRun.Result result = everyWay(ascii("PING\r\n*1\r\n$4\r\nPING\r\n"), RedisLimits.DEFAULT, true);
        assertEquals(2, result.messages().size(), result.messages().toString());
        assertEquals(result.messages().get(0), result.messages().get(1));
    }

    @Test
    void messagesKeepTheirReferenceCountsAndAnAggregateReleasesItsChildren() {
        ByteBuf content = Unpooled.copiedBuffer(ascii("v"));
        AggregateRedisMessage array = AggregateRedisMessage.array(new FullBulkStringRedisMessage(content));
        array.retain();
        assertTrue(!array.release());
        assertEquals(1, content.refCnt());
        assertTrue(array.release());
        assertEquals(0, content.refCnt());
    }

    @Test
    void encodedSizeIsExactForEveryType() {
        List<RedisMessage> all = List.of(SimpleStringRedisMessage.OK, new ErrorRedisMessage("ERR é"),
                IntegerRedisMessage.of(-12345678901L), FullBulkStringRedisMessage.of("héllo"), NullRedisMessage.NULL,
                NullRedisMessage.NULL_ARRAY, new DoubleRedisMessage(3.25), BooleanRedisMessage.FALSE,
                new BigNumberRedisMessage("123456789012345678901234567890"), new VerbatimStringRedisMessage("mkd", "# é"),
                new BulkErrorRedisMessage("é"), new BulkStringHeaderRedisMessage(2048),
                new AggregateHeaderRedisMessage(RedisAggregateType.MAP, 3),
                new BulkStringRedisContent(Unpooled.copiedBuffer(ascii("abc")), true));
        for (RedisMessage m : all) {
            ByteBuf out = Unpooled.buffer();
            RedisEncoder.write(m, out);
            assertEquals(out.readableBytes(), RedisEncoder.encodedSize(m), m.toString());
            out.release();
            ReferenceCountUtil.release(m);
        }
    }

    @Test
    void theDecoderAloneStreamsAggregatesAsHeadersAndElements() {
        EmbeddedChannel channel = new EmbeddedChannel(new RedisDecoder());
        channel.writeInbound(Unpooled.copiedBuffer(ascii("*2\r\n:1\r\n%1\r\n+a\r\n+b\r\n")));
        assertEquals(new AggregateHeaderRedisMessage(RedisAggregateType.ARRAY, 2), channel.readInbound());
        assertEquals(IntegerRedisMessage.of(1), channel.readInbound());
        AggregateHeaderRedisMessage map = channel.readInbound();
        assertEquals(2, map.elementCount());
        assertInstanceOf(SimpleStringRedisMessage.class, channel.readInbound());
        assertInstanceOf(SimpleStringRedisMessage.class, channel.readInbound());
        assertFalse(channel.finish(), "nothing more came out");
    }
}
