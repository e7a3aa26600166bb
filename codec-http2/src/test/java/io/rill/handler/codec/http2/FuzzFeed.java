package io.rill.handler.codec.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
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
 * Runs a fuzz input through a fresh pipeline of this module's handlers, once whole and once in
 * the pieces {@link FuzzInput} chooses, and checks what every channel-level fuzz target here
 * promises: both runs pass on the same messages, write the same answers (as the target renders
 * them) and report the same errors; only the errors the target allows escape; and every buffer
 * fed in was released by the end. (rill-codec-http's tests have the same runner for theirs; test
 * classes are not shared between modules.)
 */
public final class FuzzFeed {

    /** What one run produced: inbound and outbound messages as snapshots, and the errors in order. */
    public record Result(List<Object> inbound, List<Object> outbound, List<Throwable> errors, boolean open) {

        /** {@return the errors' simple class names, to compare runs by} */
        public List<String> errorTypes() {
            return errors.stream().map(e -> e.getClass().getSimpleName()).toList();
        }
    }

    /** How a target runs: its pipeline, how it renders messages (releasing them), which errors it allows. */
    public record Target(Supplier<ChannelHandler[]> pipeline, Function<Object, Object> inbound,
                         Function<Object, Object> outbound, Predicate<Throwable> allowed) {
    }

    /** What {@link #ignore} returns: not recorded. */
    private static final Object IGNORED = new Object();

    private FuzzFeed() {
    }

    /**
     * Feeds {@code input} whole and in pieces, asserts both runs agree, and returns the whole run.
     *
     * @param input  the fuzz input (split selector first)
     * @param target the pipeline and renderers
     * @return the result of feeding the payload whole
     */
    public static Result wholeAndPieces(byte[] input, Target target) {
        FuzzLeaks.assertNoneReported();
        Result whole = run(List.of(FuzzInput.payload(input)), target);
        Result pieces = run(FuzzInput.pieces(input), target);
        assertEquals(whole.inbound(), pieces.inbound(), "passed on whole and in pieces");
        assertEquals(whole.outbound(), pieces.outbound(), "written whole and in pieces");
        assertEquals(whole.errorTypes(), pieces.errorTypes(),
                () -> "errors whole: " + whole.errors() + ", in pieces: " + pieces.errors());
        assertEquals(whole.open(), pieces.open(), "channel left open whole and in pieces");
        return whole;
    }

    /**
     * Feeds each piece while the channel is open, then closes it. Asserts that every error is
     * allowed and every input buffer was released.
     *
     * @param pieces the bytes of each read
     * @param target the pipeline and renderers
     * @return what passed, what was written and every error reported
     */
    public static Result run(List<byte[]> pieces, Target target) {
        EmbeddedChannel channel = new EmbeddedChannel(target.pipeline().get());
        List<Object> inbound = new ArrayList<>();
        List<Object> outbound = new ArrayList<>();
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
            drain(channel, inbound, outbound, target);
        }
        boolean open = channel.isOpen();
        try {
            // Closed through the pipeline, not EmbeddedChannel.close(), which cancels the timers:
            // a graceful close (HTTP/2's GOAWAY, then a grace period for open streams) ends on
            // one. The clock then runs past it, as a real connection's would.
            channel.pipeline().close();
            channel.advanceTimeBy(1, java.util.concurrent.TimeUnit.HOURS);
            channel.runPendingTasks();
            channel.finish();
        } catch (Throwable t) {
            addFlattened(errors, t);
        }
        drain(channel, inbound, outbound, target);
        if (channel.isOpen()) {
            channel.releaseInbound();
            channel.releaseOutbound();
            fail("the channel is still open an hour after it was closed");
        }
        for (Throwable t : errors) {
            if (!target.allowed().test(t)) {
                throw new AssertionError("an error the target does not allow escaped", t);
            }
        }
        for (ByteBuf buf : fed) {
            if (buf.refCnt() != 0) {
                fail("input buffer not released (refCnt " + buf.refCnt() + ")");
            }
        }
        return new Result(inbound, outbound, errors, open);
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

    private static void drain(EmbeddedChannel channel, List<Object> inbound, List<Object> outbound, Target target) {
        for (Object m; (m = channel.readInbound()) != null; ) {
            inbound.add(target.inbound().apply(m));
        }
        for (Object m; (m = channel.readOutbound()) != null; ) {
            Object rendered = target.outbound().apply(m);
            if (rendered != IGNORED) {
                outbound.add(rendered);
            }
        }
    }

    /** A renderer for buffers: the bytes in hex, and the buffer released. */
    public static Object hex(Object message) {
        ByteBuf buf = (ByteBuf) message;
        try {
            return ByteBufUtil.hexDump(buf);
        } finally {
            ReferenceCountUtil.release(buf);
        }
    }

    /** A renderer that only releases, and leaves the message out: for output that legitimately differs between runs. */
    public static Object ignore(Object message) {
        ReferenceCountUtil.release(message);
        return IGNORED;
    }
}
