package io.rill.handler.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;

/**
 * Runs a fuzz input through a fresh pipeline, once whole and once in the pieces
 * {@link FuzzInput} chooses, and checks what every decoder fuzz target of this module promises:
 * the two runs decode the same messages and report the same errors, only a {@link DecoderException} escapes,
 * and every buffer that went in or came out is released by the end.
 */
public final class DecoderFeed {

    /** What one run produced: the messages (as comparable snapshots) and the errors, in order. */
    public record Result(List<Object> messages, List<Throwable> errors) {

        /** {@return the simple class names of the errors, to compare runs by} */
        public List<String> errorTypes() {
            return errors.stream().map(e -> e.getClass().getSimpleName()).toList();
        }
    }

    private DecoderFeed() {
    }

    /**
     * Feeds {@code input} whole and in pieces, asserts both runs agree, and returns the whole run.
     *
     * @param input    the fuzz input (split selector first)
     * @param pipeline a fresh set of handlers per call
     * @param snapshot turns one decoded message into a comparable value; must release the message
     * @return the result of feeding the payload whole
     */
    public static Result wholeAndPieces(byte[] input, Supplier<ChannelHandler[]> pipeline,
                                        Function<Object, Object> snapshot) {
        FuzzLeaks.assertNoneReported();
        Result whole = run(List.of(FuzzInput.payload(input)), pipeline, snapshot);
        Result pieces = run(FuzzInput.pieces(input), pipeline, snapshot);
        assertEquals(whole.messages(), pieces.messages(), "decoded whole and in pieces");
        assertEquals(whole.errorTypes(), pieces.errorTypes(),
                () -> "errors whole: " + whole.errors() + ", in pieces: " + pieces.errors());
        return whole;
    }

    /**
     * Feeds each piece while the channel is open (a frame decoder goes on after reporting a bad
     * frame), then closes it (a decoder's last call may fail too). Asserts every error is a
     * {@link DecoderException} and every input buffer was released.
     *
     * @param pieces   the bytes of each read
     * @param pipeline the handlers
     * @param snapshot turns one decoded message into a comparable value; must release the message
     * @return what was decoded and every error reported
     */
    public static Result run(List<byte[]> pieces, Supplier<ChannelHandler[]> pipeline,
                             Function<Object, Object> snapshot) {
        EmbeddedChannel channel = new EmbeddedChannel(pipeline.get());
        List<Object> messages = new ArrayList<>();
        List<ByteBuf> fed = new ArrayList<>();
        List<Throwable> errors = new ArrayList<>();
        for (byte[] piece : pieces) {
            if (!channel.isOpen()) {
                break;
            }
            ByteBuf buf = Unpooled.copiedBuffer(piece);
            fed.add(buf);
            try {
                channel.writeInbound(buf);
            } catch (Throwable t) {
                addFlattened(errors, t);
            }
            drain(channel, messages, snapshot);
        }
        try {
            channel.finish();
        } catch (Throwable t) {
            addFlattened(errors, t);
        }
        drain(channel, messages, snapshot);
        channel.releaseOutbound();
        for (Throwable t : errors) {
            if (!(t instanceof DecoderException)) {
                throw new AssertionError("only a DecoderException may escape a decoder", t);
            }
        }
        for (ByteBuf buf : fed) {
            if (buf.refCnt() != 0) {
                fail("input buffer not released (refCnt " + buf.refCnt() + ")");
            }
        }
        return new Result(messages, errors);
    }

    /**
     * EmbeddedChannel rethrows the first error of a write and attaches the later ones to it as
     * suppressed: a decoder that reported two bad frames in one read reported two errors.
     */
    private static void addFlattened(List<Throwable> errors, Throwable t) {
        errors.add(t);
        for (Throwable later : t.getSuppressed()) {
            errors.add(later);
        }
    }

    private static void drain(EmbeddedChannel channel, List<Object> messages, Function<Object, Object> snapshot) {
        for (Object m; (m = channel.readInbound()) != null; ) {
            messages.add(snapshot.apply(m));
        }
    }

    /** A snapshot for decoders that emit buffers: the bytes, as a string of hex, and the buffer released. */
    public static Object bytes(Object message) {
        ByteBuf buf = (ByteBuf) message;
        try {
            return ByteBufUtil.hexDump(buf);
        } finally {
            ReferenceCountUtil.release(buf);
        }
    }
}
