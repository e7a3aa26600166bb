package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.channel.Channel;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.rill.handler.codec.http.websocketx.WebSocketFrameDecoder;
import io.rill.handler.codec.http.websocketx.WebSocketFrameEncoder;

/**
 * Issue 15's "no per-frame garbage beyond the message": a server echoing 64-byte masked binary
 * frames through the WebSocket codec allocates, per message on its event loop, only the frame
 * and the buffer it was read into (which becomes the frame's payload, unmasked in place, and goes
 * back out with the echo's header in front), over NIO and epoll. Measured with the JVM's
 * per-thread allocation counter.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WebSocketSteadyStateAllocationTest {

    private static final int PAYLOAD = 64;
    private static final int WARM_UP_MESSAGES = 30_000;
    private static final int MEASURED_MESSAGES = 20_000;
    /**
     * Measured 48 B: the 24-byte read buffer handle (the payload) and the 24-byte frame. The bound
     * fails on any further object (16 B at least).
     */
    private static final double MAX_BYTES_PER_MESSAGE = 56;

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void anEchoed64ByteMessageAllocatesOnlyItsFrameAndReadBuffer(String transport) throws Exception {
        ChannelInitializer<Channel> server = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new WebSocketFrameEncoder(false),
                        new WebSocketFrameDecoder(WebSocketDecoderConfig.server()), new LoopAllocation.VoidEcho());
            }
        };
        LoopAllocation.RepeatedExchange exchange = new LoopAllocation.RepeatedExchange(maskedBinaryFrame(), 2 + PAYLOAD);
        try (LoopAllocation.Pair pair = new LoopAllocation.Pair(transport).connect(server, exchange)) {
            double perMessage = pair.serverBytesPerExchange(exchange, WARM_UP_MESSAGES, MEASURED_MESSAGES, null);
            System.out.printf("steady-state allocation per echoed 64-byte WebSocket message over %s: server loop %.1f B%n",
                    transport, perMessage);
            assertTrue(perMessage < MAX_BYTES_PER_MESSAGE,
                    "server loop allocated " + perMessage + " B per message (bound: " + MAX_BYTES_PER_MESSAGE + ")");
        }
    }

    /** FIN + binary, MASK + 64, a key, and 64 bytes masked with it (RFC 6455 §5.2, §5.3). */
    private static byte[] maskedBinaryFrame() {
        byte[] key = {0x37, (byte) 0xfa, 0x21, 0x3d};
        byte[] frame = new byte[2 + 4 + PAYLOAD];
        frame[0] = (byte) 0x82;
        frame[1] = (byte) (0x80 | PAYLOAD);
        System.arraycopy(key, 0, frame, 2, 4);
        for (int i = 0; i < PAYLOAD; i++) {
            frame[6 + i] = (byte) (i ^ key[i & 3]);
        }
        return frame;
    }
}
