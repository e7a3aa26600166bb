package io.rill.handler.codec.stomp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.fuzz.Cuttings;
import io.rill.handler.codec.DecoderException;
import io.rill.handler.codec.EncoderException;

class StompCodecTest {

    static String written(Object... messages) {
        EmbeddedChannel ch = new EmbeddedChannel(StompFrameEncoder.INSTANCE);
        StringBuilder out = new StringBuilder();
        for (Object m : messages) {
            ch.writeOutbound(m);
            for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
                out.append(b.toString(StandardCharsets.UTF_8));
                b.release();
            }
        }
        ch.finish();
        return out.toString();
    }

    /** Frames, heartbeats and errors (as their class) from {@code pieces}; frames are released. */
    static List<Object> decoded(List<String> pieces, StompFrameDecoder decoder) {
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        List<Object> got = new ArrayList<>();
        for (String p : pieces) {
            try {
                ch.writeInbound(Unpooled.copiedBuffer(p, StandardCharsets.UTF_8));
            } catch (DecoderException e) {
                got.add(e);
            }
            for (Object m; (m = ch.readInbound()) != null; ) {
                if (m instanceof StompFrame f) {
                    got.add(f.command() + " " + f.headers() + " " + f.content().toString(StandardCharsets.UTF_8));
                    f.release();
                } else {
                    got.add(m);
                }
            }
        }
        ch.finishAndReleaseAll();
        return got;
    }

    private static ByteBuf utf8(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.UTF_8);
    }

    @Test
    void framesAreWrittenWithEscapedHeadersAndAContentLength() {
        assertEquals("SEND\ndestination:/queue/a\nnote:a\\cb\\nc\\\\d\\r\ncontent-length:5\n\nhello\0",
                written(StompFrame.of(StompCommand.SEND, utf8("hello"), "destination", "/queue/a", "note", "a:b\nc\\d\r")));
        assertEquals("CONNECT\naccept-version:1.2\nhost:broker:61613\n\n\0",
                written(StompFrame.of(StompCommand.CONNECT, "accept-version", "1.2", "host", "broker:61613")));
        assertEquals("\n", written(StompHeartbeat.INSTANCE));
    }

    @Test
    void stomp_01_aConnectHeaderThatWouldForgeAnotherFailsTheWrite() {
        EmbeddedChannel ch = new EmbeddedChannel(StompFrameEncoder.INSTANCE);
        EncoderException e = assertThrows(EncoderException.class, () -> ch.writeOutbound(
                StompFrame.of(StompCommand.CONNECT, "login", "guest\npasscode:stolen")));
        assertTrue(e.getMessage().contains("cannot hold CR or LF"), e.getMessage());
        ch.finishAndReleaseAll();
    }

    @Test
    void framesDecodeWholeByteByByteSplitAtEveryIndexAndInRandomPieces() {
        String stream = "\n\r\nCONNECTED\r\nversion:1.2\nheart-beat:0,0\n\n\0"
                + "MESSAGE\nsubscription:0\nmessage-id:007\ndestination:/queue/a\ncontent-type:text/plain\n"
                + "content-length:8\nnote:x\\cy\n\nwith\0nul\0\n"
                + "RECEIPT\nreceipt-id:77\n\n\0" + "ERROR\nmessage:bad\n\nno length\0";
        List<Object> expected = decoded(List.of(stream), new StompFrameDecoder());
        assertEquals(List.of(StompHeartbeat.INSTANCE,
                "CONNECTED [version=1.2, heart-beat=0,0] ",
                "MESSAGE [subscription=0, message-id=007, destination=/queue/a, content-type=text/plain, content-length=8, note=x:y] with\0nul",
                StompHeartbeat.INSTANCE, "RECEIPT [receipt-id=77] ", "ERROR [message=bad] no length"), expected);
        for (List<byte[]> way : Cuttings.of(stream.getBytes(StandardCharsets.US_ASCII), 50)) {
            List<String> pieces = way.stream().map(b -> new String(b, StandardCharsets.US_ASCII)).toList();
            assertEquals(frames(expected), frames(decoded(pieces, new StompFrameDecoder())), way.size() + " pieces");
        }
    }

    /** The frames alone: how many heartbeats a cut input yields depends on where the reads end. */
    private static List<Object> frames(List<Object> got) {
        return got.stream().filter(o -> !(o instanceof StompHeartbeat)).toList();
    }

    @Test
    void stomp_02_aContentLengthOverTheBoundFailsAtTheHeader() {
        List<Object> got = decoded(List.of("SEND\ndestination:/q\ncontent-length:2000000\n\n"), new StompFrameDecoder());
        StompDecoderException e = assertInstanceOf(StompDecoderException.class, got.get(0));
        assertTrue(e.getMessage().contains("over maxBodyLength (1048576)"), e.getMessage());
        List<Object> unbounded = decoded(List.of("SEND\n\n" + "x".repeat(200)), new StompFrameDecoder(64, 8, 100));
        assertTrue(assertInstanceOf(StompDecoderException.class, unbounded.get(0)).getMessage()
                .contains("without content-length longer than maxBodyLength (100)"));
    }

    @Test
    void stomp_03_headLinesAndHeadersOverTheirBoundsFailWithoutWaitingForTheirEnd() {
        StompFrameDecoder small = new StompFrameDecoder(64, 8, 1024);
        assertInstanceOf(StompDecoderException.class,
                decoded(List.of("SEND\nkey:" + "v".repeat(100)), small).get(0), "a header line that never ends");
        StringBuilder many = new StringBuilder("SEND\n");
        for (int i = 0; i < 9; i++) {
            many.append("h").append(i).append(":v\n");
        }
        List<Object> got = decoded(List.of(many.toString()), new StompFrameDecoder(64, 8, 1024));
        assertTrue(assertInstanceOf(StompDecoderException.class, got.get(0)).getMessage().contains("maxHeaders (8)"));
    }

    @Test
    void stomp_04_malformedFramesFailAndEverythingAfterIsDropped() {
        for (String bad : List.of("GET / HTTP/1.1\r\n\r\n", "SEND\nno colon here\n\n\0", "SEND\nbad:esc\\t\n\n\0",
                "SEND\ncontent-length:-1\n\n\0", "SEND\ncontent-length:3\n\nabcd\0", "SEND\n:empty name\n\n\0")) {
            List<Object> got = decoded(List.of(bad, "SEND\n\nok\0"), new StompFrameDecoder());
            assertInstanceOf(StompDecoderException.class, got.get(0), bad);
            assertEquals(1, got.size(), "after a bad frame the decoder stays broken: " + got);
        }
    }
}
