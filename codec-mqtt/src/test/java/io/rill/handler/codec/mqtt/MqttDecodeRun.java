package io.rill.handler.codec.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.DecoderException;
import io.rill.fuzz.Cuttings;

/**
 * Feeds bytes to a fresh {@link MqttCodec} whole and every way {@link Cuttings} cuts them, and checks every way gives the same messages (as their {@code toString}, which
 * prints payloads as hex) and the same errors. Every decoded message is released here, and every
 * input buffer must have been released by the codec.
 */
final class MqttDecodeRun {

    /** What one feed produced. */
    record Result(List<String> messages, List<Throwable> errors) {

        Throwable onlyError() {
            assertEquals(1, errors.size(), () -> "errors: " + errors);
            return errors.get(0);
        }
    }

    private MqttDecodeRun() {
    }

    /** Feeds {@code bytes} every way, asserts all agree, and returns the whole feed's result. */
    static Result everyWay(byte[] bytes, Supplier<MqttCodec> codec) {
        Result whole = run(List.of(bytes), codec);
        for (List<byte[]> way : Cuttings.of(bytes)) {
            Result result = run(way, codec);
            assertEquals(whole.messages(), result.messages(), "messages fed whole and in " + way.size() + " pieces");
            assertEquals(types(whole.errors()), types(result.errors()), "errors fed whole and in " + way.size() + " pieces");
        }
        return whole;
    }

    static Result run(List<byte[]> pieces, Supplier<MqttCodec> codec) {
        EmbeddedChannel channel = new EmbeddedChannel(codec.get());
        List<String> messages = new ArrayList<>();
        List<Throwable> errors = new ArrayList<>();
        List<ByteBuf> fed = new ArrayList<>();
        for (byte[] piece : pieces) {
            ByteBuf buf = Unpooled.copiedBuffer(piece);
            fed.add(buf);
            try {
                channel.writeInbound(buf);
            } catch (Throwable t) {
                errors.add(t);
            }
            drain(channel, messages);
        }
        try {
            channel.finish();
        } catch (Throwable t) {
            errors.add(t);
        }
        drain(channel, messages);
        for (Throwable t : errors) {
            if (!(t instanceof DecoderException)) {
                throw new AssertionError("only a DecoderException may escape the MQTT codec", t);
            }
        }
        for (ByteBuf buf : fed) {
            if (buf.refCnt() != 0) {
                fail("input buffer not released (refCnt " + buf.refCnt() + ")");
            }
        }
        return new Result(messages, errors);
    }

    private static void drain(EmbeddedChannel channel, List<String> messages) {
        for (Object m; (m = channel.readInbound()) != null; ) {
            messages.add(m.toString());
            ReferenceCountUtil.release(m);
        }
    }

    /** The bytes a codec of {@code version} writes for {@code message}, a server's codec if {@code server}. */
    static byte[] encode(MqttMessage message, MqttVersion version, boolean server) {
        EmbeddedChannel channel = new EmbeddedChannel(server ? MqttCodec.server() : MqttCodec.client(version));
        if (server) {
            channel.writeInbound(Unpooled.copiedBuffer(connectBytes(version)));
            ReferenceCountUtil.release(channel.readInbound());
        }
        channel.writeOutbound(message);
        ByteBuf buf = channel.readOutbound();
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
            channel.finishAndReleaseAll();
        }
    }

    /** A minimal CONNECT (client id "c", clean start, keep-alive 60) of {@code version}. */
    static byte[] connectBytes(MqttVersion version) {
        return version.isV5() ? hex("10 0e 0004 4d515454 05 02 003c 00 0001 63")
                : hex("10 0d 0004 4d515454 04 02 003c 0001 63");
    }

    static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }

    static byte[] hex(String hex) {
        return ByteBufUtil.decodeHexDump(hex.replace(" ", ""));
    }

    private static List<String> types(List<Throwable> errors) {
        return errors.stream().map(e -> e.getClass().getSimpleName()).toList();
    }
}
