package io.rill.handler.codec.http.websocketx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/** A frame as a holder of its payload: the counts are the payload's, the copies keep kind, FIN and RSV. */
class WebSocketFrameHolderTest {

    private static TextWebSocketFrame compressedFirstFragment() {
        ByteBuf payload = Unpooled.directBuffer(5).writeBytes("hello".getBytes(StandardCharsets.UTF_8));
        return new TextWebSocketFrame(false, WebSocketFrame.RSV1, payload);
    }

    @Test
    void retainAndReleaseCountThePayload() {
        WebSocketFrame frame = compressedFirstFragment();
        assertSame(frame, frame.retain(2));
        assertSame(frame, frame.touch());
        assertEquals(3, frame.content().refCnt());
        assertFalse(frame.release(2));
        assertTrue(frame.release());
    }

    @Test
    void copiesAreTheSameKindOfFrameWithTheSameBits() {
        WebSocketFrame frame = compressedFirstFragment();
        WebSocketFrame copy = frame.copy();
        WebSocketFrame shared = frame.retainedDuplicate();
        for (WebSocketFrame f : new WebSocketFrame[] {copy, shared, frame.duplicate()}) {
            TextWebSocketFrame text = (TextWebSocketFrame) f;
            assertFalse(text.isFinalFragment());
            assertEquals(WebSocketFrame.RSV1, text.rsv());
            assertEquals("hello", text.text());
        }
        assertNotSame(frame.content(), copy.content());
        assertTrue(copy.release(), "the copy owns its own bytes");
        shared.release();
        assertEquals(1, frame.refCnt(), "releasing the retained duplicate gives its count back");
        assertTrue(frame.release());
    }

    @Test
    void toStringShowsTheBitsAndTheSizeNotTheBytes() {
        WebSocketFrame frame = compressedFirstFragment();
        assertEquals("TextWebSocketFrame(fin: false, rsv: 4, payload: 5 bytes)", frame.toString());
        assertTrue(frame.release());
    }
}
