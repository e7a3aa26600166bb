package io.rill.handler.codec.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.channel.embedded.EmbeddedChannel;

/**
 * Field-section attacks against a server codec built as users build it
 * ({@link Http2FrameCodec#forServer()}, real HPACK, an 8 KiB header list):
 * docs/security-cases.md, cases H2-17 and H2-18.
 */
class Http2HpackAttackTest {

    private final EmbeddedChannel server = new EmbeddedChannel(Http2FrameCodec.forServer().build());
    private final PeerDriver peer = new PeerDriver(server, true, new HpackEncoder()::encode,
            new HpackDecoder(1 << 20, 4096)::decode);
    private final Http2FrameWriter attacker = peer.writer;

    @AfterEach
    void release() {
        server.finishAndReleaseAll();
        peer.release();
    }

    @Test
    void h2_17_aHeaderListOverTheLimitGets431AndTheConnectionGoesOn() throws Exception {
        peer.handshake();
        Http2Headers big = request();
        for (int i = 0; i < 9; i++) {
            big.add("x-filler-" + i, "v".repeat(1000));
        }
        peer.inbound(out -> attacker.writeHeaders(out, 1, big, true));
        assertNull(server.readInbound(), "nothing reaches the application");
        List<String> frames = peer.outbound();
        assertEquals(List.of("HEADERS 1 Http2Headers[:status: 431] END_STREAM", "RST_STREAM 1 NO_ERROR"), frames);
        peer.inbound(out -> attacker.writeHeaders(out, 3, request(), true));
        assertEquals(3, server.<Http2HeadersFrame>readInbound().streamId(), "the HPACK state stayed in sync");
        assertTrue(server.isOpen());
    }

    @Test
    void h2_18_anHpackBombEndsTheConnectionWithBoundedMemory() throws Exception {
        peer.handshake();
        // Block 1 puts one 4,000-byte field in the dynamic table; block 2 refers to it 16,000 times
        // in 16 KB: 64 MB of fields from 16 KB of input.
        peer.inbound(out -> attacker.writeHeaders(out, 1, request().add("x", "b".repeat(4000)), true));
        peer.releaseInbound();
        peer.inbound(out -> {
            byte[] refs = new byte[16_000];
            java.util.Arrays.fill(refs, (byte) 0xBE); // indexed field 62: the newest dynamic entry
            Http2Frames.writeHeader(out, 4 + refs.length, Http2Frames.HEADERS, Http2Frames.FLAG_END_HEADERS
                    | Http2Frames.FLAG_END_STREAM, 3);
            out.writeBytes(new byte[] {(byte) 0x82, (byte) 0x86, (byte) 0x84, (byte) 0xBF}); // GET http / (authority: 63)
            out.writeBytes(refs);
        });
        peer.releaseInbound();
        List<String> frames = peer.outbound();
        String last = frames.get(frames.size() - 1);
        assertTrue(last.equals("GOAWAY 1 ENHANCE_YOUR_CALM"), frames.toString());
        assertFalse(server.isOpen());
    }

    private static Http2Headers request() {
        return new Http2Headers().method("GET").scheme("http").authority("localhost").path("/");
    }
}
