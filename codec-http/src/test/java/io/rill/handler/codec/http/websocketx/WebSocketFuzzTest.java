package io.rill.handler.codec.http.websocketx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.DecoderException;
import io.rill.handler.codec.http.FuzzFeed;

/**
 * Fuzz targets for {@link WebSocketFrameDecoder} on both sides. Fed whole and in pieces, a byte
 * stream gives the same frames, the same close frame written back and the same
 * {@link CorruptedWebSocketFrameException}; nothing else escapes; no frame payload is over the
 * frame limit nor a message over the message limit; and the frames decoded, encoded again by
 * {@link WebSocketFrameEncoder} (masked as the peer must), decode to the same frames.
 *
 * <p>Seeds hold the WS-01 to WS-10 inputs of docs/security-cases.md. RSV1 is allowed, as when
 * permessage-deflate was agreed, so compressed-message framing is reached too.
 */
class WebSocketFuzzTest {

    private static final int MAX_FRAME = 512;
    private static final int MAX_MESSAGE = 1024;

    @FuzzTest
    void serverSide(byte[] input) {
        decode(input, true);
    }

    @FuzzTest
    void clientSide(byte[] input) {
        decode(input, false);
    }

    private static void decode(byte[] input, boolean server) {
        WebSocketDecoderConfig config = new WebSocketDecoderConfig(MAX_FRAME, MAX_MESSAGE, server, WebSocketFrame.RSV1);
        FuzzFeed.Target target = new FuzzFeed.Target(
                () -> new ChannelHandler[] {new WebSocketFrameDecoder(config)},
                WebSocketFuzzTest::render,
                // A client masks its close frame with a fresh key: only the server's is comparable.
                server ? FuzzFeed::hex : FuzzFeed::ignore,
                t -> t instanceof CorruptedWebSocketFrameException);
        FuzzFeed.Result result = FuzzFeed.wholeAndPieces(input, target);
        long message = 0;
        for (Object f : result.inbound()) {
            String frame = (String) f;
            int payload = frame.substring(frame.lastIndexOf(' ') + 1).length() / 2;
            assertTrue(payload <= MAX_FRAME, "a frame payload over maxFramePayload: " + frame);
            if (!frame.startsWith("Ping") && !frame.startsWith("Pong") && !frame.startsWith("Close")) {
                message = frame.startsWith("Continuation") ? message + payload : payload;
                assertTrue(message <= MAX_MESSAGE, "a message over maxMessagePayload");
            }
        }
        roundTrip(result.inbound(), server, config);
    }

    /** Encodes the decoded frames again, masked if they came from a client, and decodes them. */
    private static void roundTrip(List<Object> frames, boolean server, WebSocketDecoderConfig config) {
        if (frames.isEmpty()) {
            return;
        }
        EmbeddedChannel encoder = new EmbeddedChannel(new WebSocketFrameEncoder(server));
        List<byte[]> wire = new ArrayList<>();
        for (Object f : frames) {
            encoder.writeOutbound(parse((String) f));
            for (ByteBuf b; (b = encoder.readOutbound()) != null; ) {
                wire.add(ByteBufUtil.getBytes(b));
                b.release();
            }
        }
        encoder.finishAndReleaseAll();
        FuzzFeed.Result again = FuzzFeed.run(wire, new FuzzFeed.Target(
                () -> new ChannelHandler[] {new WebSocketFrameDecoder(config)}, WebSocketFuzzTest::render,
                FuzzFeed::ignore, t -> t instanceof DecoderException));
        assertEquals(List.of(), again.errorTypes(), "re-encoded frames decode");
        assertEquals(frames, again.inbound(), "decode, encode, decode");
    }

    /** "Type fin rsv hex": enough to rebuild the frame. */
    private static Object render(Object message) {
        WebSocketFrame frame = (WebSocketFrame) message;
        try {
            String type = frame.getClass().getSimpleName().replace("WebSocketFrame", "");
            return type + " " + frame.isFinalFragment() + " " + frame.rsv() + " " + ByteBufUtil.hexDump(frame.content());
        } finally {
            frame.release();
        }
    }

    private static WebSocketFrame parse(String rendered) {
        String[] f = rendered.split(" ", -1);
        boolean fin = Boolean.parseBoolean(f[1]);
        int rsv = Integer.parseInt(f[2]);
        ByteBuf content = Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(f[3]));
        return switch (f[0]) {
            case "Text" -> new TextWebSocketFrame(fin, rsv, content);
            case "Binary" -> new BinaryWebSocketFrame(fin, rsv, content);
            case "Continuation" -> new ContinuationWebSocketFrame(fin, rsv, content);
            case "Ping" -> new PingWebSocketFrame(fin, rsv, content);
            case "Pong" -> new PongWebSocketFrame(fin, rsv, content);
            case "Close" -> new CloseWebSocketFrame(fin, rsv, content);
            default -> throw new AssertionError("unknown frame " + rendered);
        };
    }
}
