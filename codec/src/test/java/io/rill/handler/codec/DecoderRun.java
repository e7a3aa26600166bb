package io.rill.handler.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * Feeds one input to fresh decoder pipelines delivered in every way TCP might deliver it — whole,
 * byte by byte, split at every index (small inputs), and in random pieces from a seeded
 * generator — with both cumulators, and asserts every run produced the same events.
 *
 * <p>Events are strings: a {@code ByteBuf} becomes its hex dump (and is released), an exception
 * becomes {@code "!" + its simple class name}, other messages their {@code toString()}; the end
 * of input (channel closed, so decodeLast ran) is {@code "|end"}.
 */
public final class DecoderRun {

    /** Inputs up to this size are also split at every index (two pieces each). */
    private static final int SPLIT_EVERY_INDEX_UP_TO = 512;
    private static final int RANDOM_RUNS = 10;

    private DecoderRun() {
    }

    /** Runs all deliveries and returns the (identical) events. */
    public static List<String> pipelineEveryWay(Supplier<ChannelHandler[]> pipeline, byte[] input) {
        List<String> expected = run(pipeline, Cumulator.MERGE, List.of(input.length), input);
        for (Cumulator cumulator : List.of(Cumulator.MERGE, Cumulator.COMPOSITE)) {
            String name = cumulator == Cumulator.MERGE ? "merge" : "composite";
            assertEquals(expected, run(pipeline, cumulator, List.of(input.length), input), name + ", whole");
            assertEquals(expected, run(pipeline, cumulator, repeat(1, input.length), input), name + ", byte by byte");
            if (input.length <= SPLIT_EVERY_INDEX_UP_TO) {
                for (int i = 1; i < input.length; i++) {
                    assertEquals(expected, run(pipeline, cumulator, List.of(i, input.length - i), input),
                            name + ", split at " + i);
                }
            }
            Random random = new Random(0x5eedL + input.length);
            for (int r = 0; r < RANDOM_RUNS; r++) {
                List<Integer> pieces = randomPieces(random, input.length);
                assertEquals(expected, run(pipeline, cumulator, pieces, input), name + ", pieces " + pieces);
            }
        }
        return expected;
    }

    /** {@link #pipelineEveryWay} for a pipeline of one decoder. */
    public static List<String> decodeEveryWay(Supplier<? extends ChannelHandler> decoder, byte[] input) {
        return pipelineEveryWay(() -> new ChannelHandler[] {decoder.get()}, input);
    }

    /** The hex dump events expected for these frames. */
    public static List<String> hex(String... frames) {
        List<String> events = new ArrayList<>();
        for (String f : frames) {
            events.add(f.startsWith("!") || f.startsWith("|") ? f
                    : ByteBufUtil.hexDump(f.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)));
        }
        return events;
    }

    /** One delivery: {@code input} in pieces of the given sizes, then the channel is closed. */
    public static List<String> run(Supplier<ChannelHandler[]> pipeline, Cumulator cumulator, List<Integer> pieces,
                                   byte[] input) {
        Recorder recorder = new Recorder();
        EmbeddedChannel ch = new EmbeddedChannel();
        for (ChannelHandler h : pipeline.get()) {
            if (h instanceof ByteToMessageDecoder decoder) {
                decoder.setCumulator(cumulator);
            }
            ch.pipeline().addLast(h);
        }
        ch.pipeline().addLast(recorder);
        int offset = 0;
        for (int piece : pieces) {
            ByteBuf buf = ch.alloc().buffer(Math.max(1, piece)).writeBytes(input, offset, piece);
            offset += piece;
            ch.writeInbound(buf);
        }
        ch.finish();
        recorder.events.add("|end");
        return recorder.events;
    }

    static List<Integer> randomPieces(Random random, int total) {
        List<Integer> pieces = new ArrayList<>();
        int left = total;
        while (left > 0) {
            int max = random.nextBoolean() ? 8 : Math.max(1, total / 3);
            int piece = Math.min(left, 1 + random.nextInt(max));
            pieces.add(piece);
            left -= piece;
        }
        return pieces;
    }

    private static List<Integer> repeat(int value, int times) {
        List<Integer> list = new ArrayList<>(times);
        for (int i = 0; i < times; i++) {
            list.add(value);
        }
        return list;
    }

    /** The last handler: turns every message and exception into an event string. */
    static final class Recorder implements ChannelHandler {
        final List<String> events = new ArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                events.add(msg instanceof ByteBuf buf ? ByteBufUtil.hexDump(buf) : String.valueOf(msg));
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            events.add("!" + cause.getClass().getSimpleName());
        }
    }
}
