package io.rill.handler.codec.redis;

import static io.rill.handler.codec.redis.RedisDecodeRun.ascii;
import static io.rill.handler.codec.redis.RedisDecodeRun.everyWay;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The REDIS cases of docs/security-cases.md: hostile and malformed input to the decoder and aggregator. */
class RedisSecurityTest {

    /** Feeds {@code wire} every way and expects one exception of {@code type} whose message holds {@code says}, and a closed channel. */
    private static RedisDecodeRun.Result refused(String wire, RedisLimits limits, boolean inline,
                                                 Class<? extends Throwable> type, String says) {
        RedisDecodeRun.Result result = everyWay(ascii(wire), limits, inline);
        Throwable error = result.onlyError();
        assertInstanceOf(type, error, wire);
        assertTrue(error.getMessage().contains(says), () -> wire + ": " + error.getMessage());
        assertFalse(result.open(), "the channel closes after " + wire);
        return result;
    }

    private static RedisDecodeRun.Result refused(String wire, Class<? extends Throwable> type, String says) {
        return refused(wire, RedisLimits.DEFAULT, false, type, says);
    }

    @Test
    void redis_01_aHugeDeclaredBulkLengthFailsAtItsHeader() {
        refused("$67108865\r\n", RedisLimitExceededException.class, "maxBulkLength");
        refused("$2147483648\r\nabc", RedisLimitExceededException.class, "maxBulkLength");
        refused("$99999999999999999999999999\r\n", RedisLimitExceededException.class, "maxBulkLength");
        refused("=99999999\r\ntxt:", RedisLimitExceededException.class, "maxBulkLength");
        refused("!99999999\r\n", RedisLimitExceededException.class, "maxBulkLength");
        // Within the limit, the declared length costs nothing until its bytes come: a header and one piece.
        RedisDecodeRun.Result waiting = everyWay(ascii("$67108864\r\nab"));
        assertTrue(waiting.messages().isEmpty() && waiting.errors().isEmpty(), waiting.toString());
    }

    @Test
    void redis_02_aHugeDeclaredElementCountFailsAtItsHeader() {
        refused("*1048577\r\n", RedisLimitExceededException.class, "maxAggregateLength");
        refused("%524289\r\n", RedisLimitExceededException.class, "maxAggregateLength");
        refused("*2\r\n:1\r\n~9999999999\r\n", RedisLimitExceededException.class, "maxAggregateLength");
        refused("*4\r\n:1\r\n:2\r\n:3\r\n:4\r\n", RedisLimits.DEFAULT.withMaxAggregateLength(3), false,
                RedisLimitExceededException.class, "maxAggregateLength");
    }

    @Test
    void redis_03_nestingDeeperThanTheLimitFailsAtTheHeaderThatWouldOpenIt() {
        String deep = "*1\r\n".repeat(33) + ":1\r\n";
        refused(deep, RedisLimitExceededException.class, "maxDepth");
        RedisDecodeRun.Result ok = everyWay(ascii("*1\r\n".repeat(32) + ":1\r\n"));
        assertTrue(ok.errors().isEmpty() && ok.messages().size() == 1, ok.toString());
        refused(">1\r\n%1\r\n~1\r\n*1\r\n:1\r\n:2\r\n", RedisLimits.DEFAULT.withMaxDepth(3), false,
                RedisLimitExceededException.class, "maxDepth");
    }

    @Test
    void redis_04_lengthsThatAreNotNumbersOrNegativeOtherThanMinusOneAreRefused() {
        for (String wire : List.of("$-2\r\n", "$-0\r\n", "*-5\r\n", "$1a\r\nx\r\n", "$ 3\r\nabc\r\n", "$+3\r\nabc\r\n",
                "$\r\n", "*\r\n", "%-1\r\n", "~-1\r\n", ">-1\r\n", "=-1\r\n", "!-1\r\n", "*0x10\r\n", "$3.0\r\nabc\r\n",
                "=3\r\ntxt\r\n")) {
            refused(wire, RedisCodecException.class, "");
        }
    }

    @Test
    void redis_05_aValueOrLineWithoutItsCrlfIsRefused() {
        refused("$3\r\nabcX\r\n", RedisCodecException.class, "CRLF");
        refused("$3\r\nabc\rX", RedisCodecException.class, "CRLF");
        refused("*1\r\n$1\r\nab\r\n", RedisCodecException.class, "CRLF");
        refused("+OK\n", RedisCodecException.class, "without CR");
        refused(":1\n", RedisCodecException.class, "without CR");
        refused("+O\rK\r\n", RedisCodecException.class, "holds a CR");
        refused("=5\r\ntx:ab\r\n", RedisCodecException.class, "format");
    }

    @Test
    void redis_06_aLineThatNeverEndsFailsAtItsLimitWithoutWaitingForItsEnd() {
        RedisLimits limits = RedisLimits.DEFAULT.withMaxLineLength(64).withMaxInlineLength(64);
        refused("+" + "a".repeat(70), limits, false, RedisLimitExceededException.class, "maxLineLength");
        refused(":" + "1".repeat(100), limits, false, RedisLimitExceededException.class, "maxLineLength");
        refused("GET " + "k".repeat(70), limits, true, RedisLimitExceededException.class, "maxInlineLength");
        // At the limit, the line is fine.
        RedisDecodeRun.Result atLimit = everyWay(ascii("+" + "a".repeat(64) + "\r\n"), limits, false);
        assertTrue(atLimit.errors().isEmpty() && atLimit.messages().size() == 1, atLimit.toString());
        RedisDecodeRun.Result inlineAtLimit = everyWay(ascii("GET " + "k".repeat(60) + "\r\n"), limits, true);
        assertTrue(inlineAtLimit.errors().isEmpty() && inlineAtLimit.messages().size() == 1, inlineAtLimit.toString());
    }

    @Test
    void redis_07_malformedScalarsAreRefusedWithTheInputQuoted() {
        refused(":9223372036854775808\r\n", RedisCodecException.class, "9223372036854775808");
        refused(":-\r\n", RedisCodecException.class, "no digits");
        refused(":12a\r\n", RedisCodecException.class, "12a");
        refused(",0x10\r\n", RedisCodecException.class, "0x10");
        refused(",Infinity\r\n", RedisCodecException.class, "Infinity");
        refused(",1e\r\n", RedisCodecException.class, "1e");
        refused(",1.5d\r\n", RedisCodecException.class, "1.5d");
        refused("#x\r\n", RedisCodecException.class, "t or f");
        refused("_x\r\n", RedisCodecException.class, "null");
        refused("(12a\r\n", RedisCodecException.class, "12a");
        refused("?\r\n", RedisCodecException.class, "type byte");
        refused("*1\r\nPING\r\n", RedisCodecException.class, "inside an aggregate");
    }

    @Test
    void redis_08_messagesRefuseCrOrLfWhereTheyWouldSplitTheReply() {
        assertThrows(IllegalArgumentException.class, () -> new SimpleStringRedisMessage("OK\r\n+INJECTED"));
        assertThrows(IllegalArgumentException.class, () -> new ErrorRedisMessage("ERR\nx"));
        assertThrows(IllegalArgumentException.class, () -> new VerbatimStringRedisMessage("t:t", "x"));
        assertThrows(IllegalArgumentException.class, () -> new VerbatimStringRedisMessage("t\r\n", "x"));
        assertThrows(IllegalArgumentException.class, () -> new BigNumberRedisMessage("1\r\n:2"));
    }

    @Test
    void redis_09_theBytesHeldForOneMessageAreCappedEvenWhenEveryElementIsSmall() {
        // Inputs of under a kilobyte: each is also fed split at every index, which costs the square of its length.
        RedisLimits limits = RedisLimits.DEFAULT.withMaxMessageBytes(512);
        refused("*200\r\n" + ":1\r\n".repeat(200), limits, false, RedisLimitExceededException.class, "maxMessageBytes");
        refused("*2\r\n$300\r\n" + "a".repeat(300) + "\r\n$300\r\n" + "b".repeat(300) + "\r\n", limits, false,
                RedisLimitExceededException.class, "maxMessageBytes");
        // The count starts again with each top-level message: 12 of 45 bytes each hold more than 512 together.
        RedisDecodeRun.Result many = everyWay(ascii(("*10\r\n" + ":1\r\n".repeat(10)).repeat(12)), limits, false);
        assertTrue(many.errors().isEmpty() && many.messages().size() == 12, many.errors().toString());
    }

    @Test
    void redis_10_inlineCommandsWithUnbalancedQuotesAreRefusedAndClientsAcceptNone() {
        refused("SET k \"abc\r\n", RedisLimits.DEFAULT, true, RedisCodecException.class, "unbalanced quotes");
        refused("SET k 'abc\r\n", RedisLimits.DEFAULT, true, RedisCodecException.class, "unbalanced quotes");
        refused("SET k \"a\"b\r\n", RedisLimits.DEFAULT, true, RedisCodecException.class, "closing quote");
        refused("PING\r\n", RedisCodecException.class, "type byte");
    }

    @Test
    void redis_11_streamedStringsAndAggregatesAreBoundedLikeTheirCountedForms() {
        RedisLimits small = RedisLimits.DEFAULT.withMaxBulkLength(10).withMaxAggregateLength(4).withMaxDepth(3);
        // Endless chunks: the chunks' sum is a bulk string's length.
        refused("$?\r\n;6\r\nabcdef\r\n;5\r\nghijk\r\n", small, false, RedisLimitExceededException.class,
                "streamed string of 11 bytes (maxBulkLength: 10)");
        // Endless elements: as many as a declared length may say.
        refused("*?\r\n:1\r\n:2\r\n:3\r\n:4\r\n:5\r\n", small, false, RedisLimitExceededException.class,
                "more than 4 elements (maxAggregateLength)");
        // A depth bomb of streamed aggregates fails at the header that would open one too many.
        refused("*?\r\n%?\r\n~?\r\n*?\r\n", small, false, RedisLimitExceededException.class, "maxDepth");
        refused("*?\r\n|1\r\n+a\r\n*?\r\n", RedisLimits.DEFAULT.withMaxDepth(2), false,
                RedisLimitExceededException.class, "maxDepth");
        // Framing that does not fit: misread, it would desynchronise the stream.
        refused(".\r\n", RedisCodecException.class, "outside a streamed aggregate");
        refused("*1\r\n.\r\n", RedisCodecException.class, "outside a streamed aggregate");
        refused(";3\r\nabc\r\n", RedisCodecException.class, "outside a streamed string");
        refused("$?\r\n+OK\r\n", RedisCodecException.class, "chunk expected");
        refused("$?\r\n;3\r\nabcd\r\n", RedisCodecException.class, "not followed by CRLF");
        refused("$?\r\n;-1\r\n", RedisCodecException.class, "chunk length -1");
        refused("%?\r\n+k\r\n.\r\n", RedisCodecException.class, "key, value pairs");
        refused(">?\r\n", RedisCodecException.class, "RESP3 streams only arrays, maps and sets");
        refused("|?\r\n", RedisCodecException.class, "RESP3 streams only arrays, maps and sets");
        refused(".x\r\n", RedisCodecException.class, "stream end");
    }

    @Test
    void redis_12_whatCameBeforeTheBadInputIsDeliveredAndNothingAfterIt() {
        RedisDecodeRun.Result result = refused("*1\r\n$4\r\nPING\r\n$-3\r\n*1\r\n$4\r\nPING\r\n", RedisCodecException.class,
                "bulk string length");
        assertEquals(1, result.messages().size(), result.messages().toString());
        // A partly aggregated command is released when the channel closes (the leak detector checks).
        refused("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$x\r\n", RedisCodecException.class, "bulk string length");
        refused("*3\r\n$3\r\nSET\r\n$100\r\nabc", RedisLimits.DEFAULT.withMaxBulkLength(10), false,
                RedisLimitExceededException.class, "maxBulkLength");
    }
}
