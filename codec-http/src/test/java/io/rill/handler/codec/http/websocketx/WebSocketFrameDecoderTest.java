package io.rill.handler.codec.http.websocketx;

import static io.rill.handler.codec.http.websocketx.WebSocketDecodeRun.bytes;
import static io.rill.handler.codec.http.websocketx.WebSocketDecodeRun.client;
import static io.rill.handler.codec.http.websocketx.WebSocketDecodeRun.everyWay;
import static io.rill.handler.codec.http.websocketx.WebSocketDecodeRun.frame;
import static io.rill.handler.codec.http.websocketx.WebSocketDecodeRun.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;

/** The decoder's framing rules (RFC 6455 §5), each input fed whole, byte by byte and split everywhere. */
class WebSocketFrameDecoderTest {

    private static final WebSocketDecoderConfig SERVER = WebSocketDecoderConfig.server();
    private static final WebSocketDecoderConfig CLIENT = WebSocketDecoderConfig.client();
    private static final List<String> PROTOCOL_ERROR = List.of("FAIL 1002", "SENT 1002", "CLOSED");

    @Test
    void decodesMaskedTextBinaryPingPongFromAClient() {
        byte[] input = bytes(client(0x81, "Hi"), client(0x82, new byte[] {1, 2, 3, 4, 5}), client(0x89, "p"),
                client(0x8A, "q"));
        assertEquals(List.of("TEXT 1 0 4869", "BINARY 1 0 0102030405", "PING 1 0 70", "PONG 1 0 71"),
                everyWay(SERVER, input));
    }

    @Test
    void decodesUnmaskedFramesFromAServer() {
        assertEquals(List.of("TEXT 1 0 4869"), everyWay(CLIENT, hex("81 02 48 69")));
    }

    @Test
    void decodesSixteenAndSixtyFourBitLengths() {
        byte[] mid = new byte[300];
        byte[] big = new byte[70_000];
        Arrays.fill(big, (byte) 7);
        WebSocketDecoderConfig roomy = SERVER.withLimits(100_000, 100_000);
        assertEquals(List.of("BINARY 1 0 " + "00".repeat(300)), everyWay(roomy, client(0x82, mid)));
        List<String> outcome = WebSocketDecodeRun.run(roomy, client(0x82, big), List.of(5, 9, 70_000));
        assertEquals(List.of("BINARY 1 0 " + "07".repeat(70_000)), outcome);
    }

    @Test
    void leavesTheInputBytesAsTheyWereWhenItUnmasks() {
        byte[] payload = new byte[200];
        Arrays.fill(payload, (byte) 'x');
        byte[] wire = client(0x82, payload);
        EmbeddedChannel channel = new EmbeddedChannel(new WebSocketFrameDecoder(SERVER));
        ByteBuf input = Unpooled.buffer().writeBytes(wire);
        ByteBuf tee = input.retainedDuplicate(); // what a proxy forwarding the raw bytes would hold
        channel.writeInbound(input);
        WebSocketFrame frame = channel.readInbound();
        try {
            assertEquals("x".repeat(200), frame.content().toString(StandardCharsets.US_ASCII));
            byte[] seen = new byte[wire.length];
            tee.getBytes(0, seen);
            assertArrayEquals(wire, seen);
        } finally {
            frame.release();
            tee.release();
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void deliversFragmentsWithControlFramesBetweenThem() {
        byte[] input = bytes(client(0x01, "He"), client(0x89, ""), client(0x00, "ll"), client(0x80, "o"));
        assertEquals(List.of("TEXT 0 0 4865", "PING 1 0 ", "CONTINUATION 0 0 6c6c", "CONTINUATION 1 0 6f"),
                everyWay(SERVER, input));
    }

    @Test
    void refusesAnUnmaskedClientFrameWith1002() {
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, hex("81 02 48 69")));
    }

    @Test
    void refusesAMaskedServerFrameWith1002() {
        assertEquals(PROTOCOL_ERROR, everyWay(CLIENT, client(0x81, "Hi")));
    }

    @Test
    void refusesRsvBitsWithoutAnExtension() {
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, client(0xC1, "")));
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, client(0xA2, "")));
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, client(0x92, "")));
    }

    @Test
    void acceptsRsv1OnDataFramesWhenAnExtensionClaimsIt() {
        WebSocketDecoderConfig deflate = SERVER.withAllowedRsv(WebSocketFrame.RSV1);
        // Compressed text is not UTF-8 before inflation: the extension checks it, not the decoder.
        assertEquals(List.of("TEXT 1 4 ff"), everyWay(deflate, client(0xC1, new byte[] {(byte) 0xFF})));
        assertEquals(PROTOCOL_ERROR, everyWay(deflate, client(0xC9, "")), "never on control frames");
        assertEquals(PROTOCOL_ERROR, everyWay(deflate, client(0xA1, "")), "only the bit it claims");
    }

    @Test
    void refusesReservedOpcodes() {
        for (int opcode : new int[] {0x3, 0x4, 0x5, 0x6, 0x7, 0xB, 0xC, 0xD, 0xE, 0xF}) {
            assertEquals(PROTOCOL_ERROR, everyWay(SERVER, client(0x80 | opcode, "")), "opcode " + opcode);
        }
    }

    @Test
    void refusesControlFramesOver125BytesOrFragmented() {
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, client(0x89, new byte[126])));
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, client(0x09, "")));
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, client(0x08, "")));
    }

    @Test
    void refusesNonMinimalLengths() {
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, hex("82 FE 00 05 00 00 00 00 01 02 03 04 05")));
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, hex("82 FF 00 00 00 00 00 00 01 00 00 00 00 00")));
    }

    @Test
    void refusesA64BitLengthWithTheTopBitSet() {
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, hex("82 FF 80 00 00 00 00 00 00 00 00 00 00 00")));
    }

    @Test
    void refusesAContinuationWithoutAStart() {
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, client(0x80, "")));
    }

    @Test
    void refusesANewMessageInsideAFragmentedOne() {
        assertEquals(List.of("TEXT 0 0 ", "FAIL 1002", "SENT 1002", "CLOSED"),
                everyWay(SERVER, bytes(client(0x01, ""), client(0x01, ""))));
        assertEquals(List.of("BINARY 0 0 ", "FAIL 1002", "SENT 1002", "CLOSED"),
                everyWay(SERVER, bytes(client(0x02, ""), client(0x81, ""))));
    }

    @Test
    void refusesAFrameOverTheLimitBeforeBufferingIt() {
        // 2^40 bytes announced, none sent: refused from the header alone.
        assertEquals(List.of("FAIL 1009", "SENT 1009", "CLOSED"),
                everyWay(SERVER, hex("82 FF 00 00 01 00 00 00 00 00 01 02 03 04")));
        assertEquals(List.of("FAIL 1009", "SENT 1009", "CLOSED"),
                everyWay(SERVER.withLimits(10, 100), client(0x82, new byte[11])));
    }

    @Test
    void refusesAMessageOverTheLimitAtTheFrameThatExceedsIt() {
        WebSocketDecoderConfig small = SERVER.withLimits(10, 15);
        byte[] input = bytes(client(0x02, new byte[8]), client(0x00, new byte[8]));
        assertEquals(List.of("BINARY 0 0 " + "00".repeat(8), "FAIL 1009", "SENT 1009", "CLOSED"), everyWay(small, input));
    }

    /**
     * A compressed frame may be a little longer than the data it carries: it is held to the
     * compressed bound of the frame limit, a bound all the same, and its message is left to the
     * extension, which measures it inflated.
     */
    @Test
    void holdsACompressedFrameToTheCompressedBoundAndLeavesItsMessageToTheExtension() {
        WebSocketDecoderConfig small = SERVER.withLimits(100, 100).withAllowedRsv(WebSocketFrame.RSV1);
        int bound = small.maxCompressedFramePayload();
        assertEquals(100 + 12 + 1 + 64, bound);
        List<String> tooBig = List.of("FAIL 1009", "SENT 1009", "CLOSED");
        assertEquals(List.of("BINARY 1 4 " + "00".repeat(bound)), everyWay(small, client(0xC2, new byte[bound])));
        assertEquals(tooBig, everyWay(small, client(0xC2, new byte[bound + 1])));
        assertEquals(tooBig, everyWay(small, client(0x82, new byte[101])), "a plain frame keeps the plain limit");
        byte[] fragments = bytes(client(0x42, new byte[bound]), client(0x00, new byte[bound]), client(0x80, new byte[bound]));
        assertEquals(List.of("BINARY 0 4 " + "00".repeat(bound), "CONTINUATION 0 0 " + "00".repeat(bound),
                "CONTINUATION 1 0 " + "00".repeat(bound)), everyWay(small, fragments));
        assertEquals(List.of("BINARY 0 4 ", "FAIL 1009", "SENT 1009", "CLOSED"),
                everyWay(small, bytes(client(0x42, ""), client(0x80, new byte[bound + 1]))), "continuations too");
        // 2^40 bytes announced with RSV1: refused from the header alone.
        assertEquals(tooBig, everyWay(small, hex("C2 FF 00 00 01 00 00 00 00 00 01 02 03 04")));
        assertEquals(Integer.MAX_VALUE, SERVER.withLimits(Integer.MAX_VALUE, 1).maxCompressedFramePayload());
    }

    @Test
    void closeFrameEndsDecoding() {
        byte[] input = bytes(client(0x88, hex("03 E8 62 79 65")), client(0x81, "late"));
        assertEquals(List.of("CLOSE 1 0 03e8627965"), everyWay(SERVER, input));
    }

    @Test
    void refusesBadCloseFrames() {
        assertEquals(PROTOCOL_ERROR, everyWay(SERVER, client(0x88, hex("03"))), "1-byte payload");
        for (int status : new int[] {0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535}) {
            byte[] payload = {(byte) (status >> 8), (byte) status};
            assertEquals(PROTOCOL_ERROR, everyWay(SERVER, client(0x88, payload)), "status " + status);
        }
        for (int status : new int[] {1000, 1001, 1002, 1003, 1007, 1011, 1014, 3000, 4999}) {
            byte[] payload = {(byte) (status >> 8), (byte) status};
            assertEquals(1, everyWay(SERVER, client(0x88, payload)).size(), "status " + status);
        }
    }

    @Test
    void decodesAServersCloseFrameOnAClient() {
        assertEquals(List.of("CLOSE 1 0 03e9"), everyWay(CLIENT, frame(0x88, hex("03 E9"), false)));
    }
}
