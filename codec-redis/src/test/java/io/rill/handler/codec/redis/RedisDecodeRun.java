package io.rill.handler.codec.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.fuzz.Cuttings;
import io.rill.handler.codec.DecoderException;

/**
 * Feeds bytes to a fresh decoder and aggregator whole and every way {@link Cuttings} cuts them, and
 * checks that every way gives the same messages and the same errors. Messages come back as their
 * {@code toString} and are released; every input buffer must be released too.
 */
final class RedisDecodeRun {

    /** What one feed produced, and whether the channel was still open after it. */
    record Result(List<String> messages, List<Throwable> errors, boolean open) {

        Throwable onlyError() {
            assertEquals(1, errors.size(), () -> "errors: " + errors + ", messages: " + messages);
            return errors.get(0);
        }
    }

    private RedisDecodeRun() {
    }

    static Result everyWay(byte[] bytes, RedisLimits limits, boolean inline) {
        Result whole = run(List.of(bytes), limits, inline);
        for (List<byte[]> way : Cuttings.of(bytes)) {
            Result result = run(way, limits, inline);
            assertEquals(whole.messages(), result.messages(), "messages fed whole and in " + way.size() + " pieces");
            assertEquals(types(whole.errors()), types(result.errors()), "errors fed whole and in pieces");
            assertEquals(whole.open(), result.open(), "channel open fed whole and in pieces");
        }
        return whole;
    }

    static Result everyWay(byte[] bytes) {
        return everyWay(bytes, RedisLimits.DEFAULT, false);
    }

    static Result run(List<byte[]> pieces, RedisLimits limits, boolean inline) {
        EmbeddedChannel channel = new EmbeddedChannel(new RedisDecoder(limits, inline), new RedisAggregator(limits));
        List<String> messages = new ArrayList<>();
        List<Throwable> errors = new ArrayList<>();
        List<ByteBuf> fed = new ArrayList<>();
        for (byte[] piece : pieces) {
            ByteBuf buf = Unpooled.copiedBuffer(piece);
            fed.add(buf);
            if (!channel.isOpen()) {
                buf.release(); // a closed channel reads nothing more
                continue;
            }
            try {
                channel.writeInbound(buf);
            } catch (Throwable t) {
                errors.add(t);
                errors.addAll(Arrays.asList(t.getSuppressed()));
            }
            drain(channel, messages);
        }
        boolean open = channel.isOpen();
        try {
            channel.finish();
        } catch (Throwable t) {
            errors.add(t);
        }
        drain(channel, messages);
        for (Throwable t : errors) {
            if (!(t instanceof DecoderException)) {
                throw new AssertionError("only a DecoderException may escape the Redis decoder", t);
            }
        }
        for (ByteBuf buf : fed) {
            if (buf.refCnt() != 0) {
                fail("input buffer not released (refCnt " + buf.refCnt() + ")");
            }
        }
        return new Result(messages, errors, open);
    }

    private static void drain(EmbeddedChannel channel, List<String> messages) {
        for (Object m; (m = channel.readInbound()) != null; ) {
            messages.add(m.toString());
            ReferenceCountUtil.release(m);
        }
    }

    /** The bytes {@link RedisEncoder} writes for {@code message}; the message is released. */
    static byte[] encode(RedisMessage message) {
        EmbeddedChannel channel = new EmbeddedChannel(RedisEncoder.INSTANCE);
        channel.writeOutbound(message);
        ByteBuf buf = channel.readOutbound();
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
            channel.finish();
        }
    }

    static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    private static List<String> types(List<Throwable> errors) {
        return errors.stream().map(e -> e.getClass().getSimpleName()).toList();
    }
}
