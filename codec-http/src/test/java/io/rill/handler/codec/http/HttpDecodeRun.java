package io.rill.handler.codec.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * Feeds the same bytes to fresh HTTP decoders whole, byte by byte, split at every index (short
 * inputs) and in seeded random pieces, and asserts every run decodes the same messages. A message
 * renders as one string: its start line, its fields, its body (however it was cut into pieces)
 * and its trailers; a failure as {@code FAILED <status> <exception class>}.
 */
final class HttpDecodeRun {

    private HttpDecodeRun() {
    }

    /** Decodes {@code input} every way; returns the rendered messages (identical in every run). */
    static List<String> everyWay(Supplier<? extends ChannelHandler> decoder, String input) {
        byte[] bytes = input.getBytes(StandardCharsets.ISO_8859_1);
        List<String> expected = run(decoder, bytes, List.of(bytes.length));
        if (bytes.length <= 16_384) {
            assertEquals(expected, run(decoder, bytes, ones(bytes.length)), "byte by byte");
        }
        if (bytes.length <= 400) {
            for (int i = 1; i < bytes.length; i++) {
                assertEquals(expected, run(decoder, bytes, List.of(i, bytes.length - i)), "split at " + i);
            }
        }
        Random random = new Random(bytes.length);
        for (int r = 0; r < 10; r++) {
            List<Integer> pieces = new ArrayList<>();
            for (int left = bytes.length; left > 0; ) {
                int n = Math.min(left, 1 + random.nextInt(Math.max(1, bytes.length / 4)));
                pieces.add(n);
                left -= n;
            }
            assertEquals(expected, run(decoder, bytes, pieces), "pieces " + pieces);
        }
        return expected;
    }

    private static List<Integer> ones(int n) {
        List<Integer> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(1);
        }
        return list;
    }

    static List<String> run(Supplier<? extends ChannelHandler> decoder, byte[] input, List<Integer> pieces) {
        EmbeddedChannel ch = new EmbeddedChannel(decoder.get());
        List<String> messages = new ArrayList<>();
        Renderer renderer = new Renderer(messages);
        int at = 0;
        for (int n : pieces) {
            ch.writeInbound(Unpooled.copiedBuffer(input, at, n));
            at += n;
            drain(ch, renderer);
        }
        ch.finish();
        drain(ch, renderer);
        renderer.flushIncomplete();
        return messages;
    }

    private static void drain(EmbeddedChannel ch, Renderer renderer) {
        for (Object msg; (msg = ch.readInbound()) != null; ) {
            renderer.accept(msg);
        }
    }

    /** Builds one string per message from its pieces. */
    private static final class Renderer {
        private final List<String> out;
        private StringBuilder current;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();

        Renderer(List<String> out) {
            this.out = out;
        }

        void accept(Object msg) {
            try {
                if (msg instanceof HttpMessage m) {
                    flushIncomplete();
                    current = new StringBuilder();
                    if (m.decoderResult().isFailure()) {
                        current.append(failure(m.decoderResult().cause()));
                    } else {
                        if (m instanceof HttpRequest r) {
                            current.append(r.method()).append(' ').append(r.uri()).append(' ').append(r.protocolVersion());
                        } else {
                            HttpResponse r = (HttpResponse) m;
                            current.append(r.protocolVersion()).append(' ').append(r.status().code());
                        }
                        fields(current, m.headers());
                    }
                }
                if (msg instanceof HttpContent c) {
                    if (current == null) {
                        current = new StringBuilder("(no head)");
                    }
                    ByteBuf content = c.content();
                    byte[] bytes = new byte[content.readableBytes()];
                    content.getBytes(content.readerIndex(), bytes);
                    body.writeBytes(bytes);
                    if (c.decoderResult().isFailure()) {
                        current.append(" | ").append(failure(c.decoderResult().cause()));
                    }
                    if (c instanceof LastHttpContent last) {
                        if (body.size() > 0) {
                            current.append(" | body ").append(body.toString(StandardCharsets.ISO_8859_1));
                        }
                        if (!last.trailingHeaders().isEmpty()) {
                            current.append(" | trailers");
                            fields(current, last.trailingHeaders());
                        }
                        out.add(current.toString());
                        current = null;
                        body.reset();
                    }
                }
                if (msg instanceof ByteBuf raw) {
                    out.add("raw " + raw.toString(StandardCharsets.ISO_8859_1));
                }
            } finally {
                io.rill.buffer.ReferenceCountUtil.release(msg);
            }
        }

        void flushIncomplete() {
            if (current != null) {
                out.add(current + (body.size() > 0 ? " | body " + body.toString(StandardCharsets.ISO_8859_1) : "")
                        + " | (unfinished)");
                current = null;
                body.reset();
            }
        }

        private static String failure(Throwable cause) {
            String status = cause instanceof HttpDecoderException e ? String.valueOf(e.status().code()) : "?";
            return "FAILED " + status + " " + cause.getClass().getSimpleName();
        }

        private static void fields(StringBuilder sb, HttpHeaders h) {
            for (int i = 0; i < h.size(); i++) {
                sb.append(" | ").append(h.nameAt(i)).append(": ").append(h.valueAt(i));
            }
        }
    }
}
