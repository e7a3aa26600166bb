package io.rill.microbench.http;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.http.websocketx.TextWebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketExtension;
import io.rill.handler.codec.http.websocketx.WebSocketFrame;
import io.rill.handler.codec.http.websocketx.extensions.PerMessageDeflateClientNegotiator;
import io.rill.handler.codec.http.websocketx.extensions.PerMessageDeflateServerNegotiator;

/**
 * permessage-deflate on a realistic message: a 1 KiB JSON-ish text, compressed by a server's
 * extension encoder and inflated (with the UTF-8 check) by a client's extension decoder, with the
 * agreed parameters {@code agreement}. One operation = one message. Inflation always reads the
 * same self-contained message (made without context takeover), so it is the same work each time.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class WebSocketDeflateBenchmark {

    /** The agreed parameters: context kept across messages, reset per message, or a 2^10 window. */
    @Param({"permessage-deflate", "permessage-deflate; server_no_context_takeover",
            "permessage-deflate; server_max_window_bits=10"})
    public String agreement;

    private byte[] message;
    private WebSocketFrame compressed;
    private EmbeddedChannel compressing;
    private EmbeddedChannel inflating;

    @Setup
    public void setUp() {
        message = json(1024);
        WebSocketExtension server = PerMessageDeflateServerNegotiator.acceptAll().negotiate(List.of(agreement)).get(0);
        compressing = new EmbeddedChannel(server.newEncoder());
        WebSocketExtension selfContained = PerMessageDeflateServerNegotiator.acceptAll()
                .negotiate(List.of("permessage-deflate; server_no_context_takeover")).get(0);
        EmbeddedChannel once = new EmbeddedChannel(selfContained.newEncoder());
        once.writeOutbound(new TextWebSocketFrame(Unpooled.wrappedBuffer(message)));
        compressed = once.readOutbound();
        once.finishAndReleaseAll();
        WebSocketExtension client = PerMessageDeflateClientNegotiator.standard()
                .negotiate(List.of(server.responseElement())).get(0);
        inflating = new EmbeddedChannel(client.newDecoder());
    }

    @TearDown
    public void tearDown() {
        compressed.release();
        compressing.finishAndReleaseAll();
        inflating.finishAndReleaseAll();
    }

    @Benchmark
    public int compress() {
        compressing.writeOutbound(new TextWebSocketFrame(Unpooled.wrappedBuffer(message)));
        WebSocketFrame out = compressing.readOutbound();
        int n = out.content().readableBytes();
        out.release();
        return n;
    }

    @Benchmark
    public int inflate() {
        inflating.writeInbound(compressed.retainedDuplicate());
        WebSocketFrame out = inflating.readInbound();
        int n = out.content().readableBytes();
        out.release();
        return n;
    }

    /** Chat-like records with repeating keys and varying values, cut to {@code size} bytes of ASCII. */
    static byte[] json(int size) {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; out.length() < size; i++) {
            out.append("{\"id\":").append(1000 + i * 37).append(",\"user\":\"user").append(i % 7)
                    .append("\",\"room\":\"general\",\"text\":\"message number ").append(i * 13 % 101)
                    .append(" about ").append(i % 3 == 0 ? "lunch" : "the build").append("\",\"ts\":")
                    .append(1732580000L + i * 61).append("},");
        }
        return out.substring(0, size).getBytes(StandardCharsets.US_ASCII);
    }
}
