package io.rill.handler.codec.http.websocketx.extensions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.DataFormatException;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;
import io.rill.handler.codec.http.FuzzFeed;
import io.rill.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.rill.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.rill.handler.codec.http.websocketx.WebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketFrameDecoder;

/**
 * Fuzz targets for permessage-deflate (RFC 7692): a server's frames through the frame decoder and
 * {@link PerMessageDeflateDecoder} (the same messages whole and in pieces, only a
 * {@link CorruptedWebSocketFrameException}, no inflated message over the limit: docs/security-cases.md,
 * cases WS-18 to WS-21); {@link MessageDeflater} → {@link MessageInflater} gives back any payload,
 * whole or cut into frames; and the extension-offer parser, whose elements and parameters print
 * and parse back to themselves.
 */
class PerMessageDeflateFuzzTest {

    private static final int MAX_MESSAGE = 4096;

    @FuzzTest
    void inflateFrames(byte[] input) {
        boolean noContext = input.length > 0 && (input[0] & 1) != 0;
        FuzzFeed.Result result = FuzzFeed.wholeAndPieces(input, new FuzzFeed.Target(
                () -> new ChannelHandler[] {
                    new WebSocketFrameDecoder(new WebSocketDecoderConfig(MAX_MESSAGE, MAX_MESSAGE, false, WebSocketFrame.RSV1)),
                    new PerMessageDeflateDecoder(new MessageInflater(MAX_MESSAGE, noContext))},
                PerMessageDeflateFuzzTest::render,
                FuzzFeed::ignore, // a client's close frame is masked with a fresh key
                t -> t instanceof CorruptedWebSocketFrameException));
        long message = 0;
        for (Object f : result.inbound()) {
            String frame = (String) f;
            int payload = frame.substring(frame.lastIndexOf(' ') + 1).length() / 2;
            message = frame.startsWith("Continuation") ? message + payload : payload;
            assertTrue(message <= MAX_MESSAGE, () -> "an inflated message over the limit: " + frame);
        }
    }

    @FuzzTest
    void deflateInflate(byte[] input) throws Exception {
        FuzzLeaks.assertNoneReported();
        boolean noContext = input.length > 0 && (input[0] & 1) != 0;
        int windowBits = 8 + (input.length > 0 ? (input[0] >>> 1) & 7 : 7);
        MessageDeflater deflater = new MessageDeflater(6, windowBits, noContext);
        MessageInflater inflater = new MessageInflater(1 << 20, noContext);
        try {
            for (int round = 0; round < 2; round++) { // twice: the second message may use the first's history
                List<byte[]> frames = FuzzInput.pieces(input);
                ByteBuf joined = Unpooled.buffer();
                try {
                    for (int i = 0; i < Math.max(1, frames.size()); i++) {
                        boolean last = i >= frames.size() - 1;
                        ByteBuf payload = Unpooled.wrappedBuffer(frames.isEmpty() ? new byte[0] : frames.get(i));
                        ByteBuf compressed = deflater.deflate(ByteBufAllocator.DEFAULT, payload, last);
                        ByteBuf inflated = inflater.inflate(ByteBufAllocator.DEFAULT, compressed, last);
                        joined.writeBytes(inflated);
                        inflated.release();
                        compressed.release();
                        payload.release();
                    }
                    assertEquals(ByteBufUtil.hexDump(FuzzInput.payload(input)), ByteBufUtil.hexDump(joined),
                            "deflate, inflate (message " + round + ")");
                } finally {
                    joined.release();
                }
            }
        } finally {
            deflater.close();
            inflater.close();
        }
    }

    @FuzzTest
    void inflateRaw(byte[] input) {
        FuzzLeaks.assertNoneReported();
        MessageInflater inflater = new MessageInflater(MAX_MESSAGE, false);
        ByteBuf in = Unpooled.wrappedBuffer(FuzzInput.payload(input));
        try {
            ByteBuf out = inflater.inflate(ByteBufAllocator.DEFAULT, in, true);
            assertTrue(out.readableBytes() <= MAX_MESSAGE, "inflated past the limit");
            out.release();
        } catch (DataFormatException | MessageInflater.TooBigException expected) {
            // 1007 or 1009 on the wire
        } finally {
            in.release();
            inflater.close();
        }
    }

    @FuzzTest
    void extensionOffer(byte[] input) {
        String text = new String(FuzzInput.payload(input), StandardCharsets.ISO_8859_1);
        ExtensionElement element = ExtensionElement.parse(text);
        if (element == null) {
            return;
        }
        ExtensionElement again = ExtensionElement.parse(element.toString());
        assertEquals(element, again, () -> "parse, print, parse: " + element);
        PerMessageDeflateParams params = PerMessageDeflateParams.of(element);
        if (params != null) {
            PerMessageDeflateParams reparsed = PerMessageDeflateParams.of(ExtensionElement.parse(params.toElement()));
            assertNotNull(reparsed, () -> "toElement wrote what of() refuses: " + params.toElement());
            assertEquals(params, reparsed, "parameters, element, parameters");
        }
    }

    private static Object render(Object message) {
        WebSocketFrame frame = (WebSocketFrame) message;
        try {
            return frame.getClass().getSimpleName().replace("WebSocketFrame", "") + " " + frame.isFinalFragment() + " "
                    + frame.rsv() + " " + ByteBufUtil.hexDump(frame.content());
        } finally {
            frame.release();
        }
    }
}
