package io.rill.handler.codec.socks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.DecoderException;
import io.rill.fuzz.Cuttings;

/**
 * Feeds bytes to a fresh SOCKS decoder pipeline whole and every way {@link Cuttings} cuts them, and
 * checks that every way gives the same result. Messages come back as their {@code toString}
 * (records compare by value); bytes a decoder passed on after leaving the pipeline come back as
 * {@code "bytes:<hex>"}, joined across reads.
 */
final class SocksDecodeRun {

    /** What one feed produced. */
    record Result(List<String> messages, List<Throwable> errors) {

        Throwable onlyError() {
            assertEquals(1, errors.size(), () -> "errors: " + errors);
            return errors.get(0);
        }
    }

    private SocksDecodeRun() {
    }

    /** Feeds {@code bytes} every way, asserts all agree, and returns the whole feed's result. */
    static Result everyWay(byte[] bytes, Supplier<ChannelHandler[]> pipeline) {
        Result whole = run(List.of(bytes), pipeline);
        for (List<byte[]> way : Cuttings.of(bytes)) {
            Result result = run(way, pipeline);
            assertEquals(whole.messages(), result.messages(), "messages fed whole and in " + way.size() + " pieces");
            assertEquals(types(whole.errors()), types(result.errors()), "errors fed whole and in pieces");
        }
        return whole;
    }

    static Result run(List<byte[]> pieces, Supplier<ChannelHandler[]> pipeline) {
        EmbeddedChannel channel = new EmbeddedChannel(pipeline.get());
        List<Object> out = new ArrayList<>();
        List<Throwable> errors = new ArrayList<>();
        List<ByteBuf> fed = new ArrayList<>();
        for (byte[] piece : pieces) {
            ByteBuf buf = Unpooled.copiedBuffer(piece);
            fed.add(buf);
            try {
                channel.writeInbound(buf);
            } catch (Throwable t) {
                errors.add(t);
                errors.addAll(Arrays.asList(t.getSuppressed()));
            }
            for (Object m; (m = channel.readInbound()) != null; ) {
                out.add(m);
            }
        }
        try {
            channel.finish();
        } catch (Throwable t) {
            errors.add(t);
        }
        for (Object m; (m = channel.readInbound()) != null; ) {
            out.add(m);
        }
        for (Throwable t : errors) {
            if (!(t instanceof DecoderException)) {
                throw new AssertionError("only a DecoderException may escape a SOCKS decoder", t);
            }
        }
        List<String> messages = new ArrayList<>();
        StringBuilder passedOn = new StringBuilder();
        for (Object m : out) {
            if (m instanceof ByteBuf buf) {
                passedOn.append(ByteBufUtil.hexDump(buf));
                buf.release();
            } else {
                messages.add(m.toString());
            }
        }
        if (passedOn.length() > 0) {
            messages.add("bytes:" + passedOn);
        }
        for (ByteBuf buf : fed) {
            if (buf.refCnt() != 0) {
                fail("input buffer not released (refCnt " + buf.refCnt() + ")");
            }
        }
        return new Result(messages, errors);
    }

    /** The bytes {@link SocksMessageEncoder} writes for {@code message}. */
    static byte[] encode(SocksMessage message) {
        EmbeddedChannel channel = new EmbeddedChannel(SocksMessageEncoder.INSTANCE);
        channel.writeOutbound(message);
        ByteBuf buf = channel.readOutbound();
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
            channel.finish();
        }
    }

    static byte[] hex(String hex) {
        return ByteBufUtil.decodeHexDump(hex.replace(" ", ""));
    }

    private static List<String> types(List<Throwable> errors) {
        return errors.stream().map(e -> e.getClass().getSimpleName()).toList();
    }
}
