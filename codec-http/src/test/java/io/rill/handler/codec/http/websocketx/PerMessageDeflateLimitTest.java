package io.rill.handler.codec.http.websocketx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.rill.buffer.Unpooled;
import io.rill.handler.codec.http.websocketx.extensions.PerMessageDeflateClientNegotiator;
import io.rill.handler.codec.http.websocketx.extensions.PerMessageDeflateServerNegotiator;

/**
 * The message limit of a connection with permessage-deflate is on what a message inflates to,
 * whatever it takes on the wire: with the default 64 KiB, a message of the limit less one, of the
 * limit and of one byte more, random (DEFLATE makes it a little longer) and compressible, sent
 * in one frame and fragmented in several ways, is accepted up to the limit and refused with 1009
 * past it, by the server's decoder and by the client's.
 */
class PerMessageDeflateLimitTest {

    private static final int LIMIT = WebSocketDecoderConfig.DEFAULT_MAX_PAYLOAD;
    private static final int ROOMY = 1 << 20;

    /** Frame sizes a message of {@code n} bytes is sent in: whole, cut near each end, halves, even pieces. */
    private static List<int[]> fragmentings(int n) {
        return List.of(new int[] {n}, new int[] {1, n - 1}, new int[] {n - 1, 1}, new int[] {n / 2, n - n / 2},
                pieces(n, 4096), pieces(n, 1000));
    }

    private static int[] pieces(int n, int size) {
        int[] out = new int[(n + size - 1) / size];
        Arrays.fill(out, size);
        out[out.length - 1] = n - size * (out.length - 1);
        return out;
    }

    private static byte[] random(int n) {
        byte[] data = new byte[n];
        new Random(n).nextBytes(data);
        return data;
    }

    private static byte[] compressible(int n) {
        String line = "a page of text, much like the last one; ";
        byte[] data = new byte[n];
        for (int i = 0; i < n; i++) {
            data[i] = (byte) line.charAt(i % line.length());
        }
        return data;
    }

    /** Sends {@code data} from the client as a binary message cut into {@code frames}. */
    private static void send(DeflatePeers peers, byte[] data, int[] frames) {
        int at = 0;
        for (int i = 0; i < frames.length; i++) {
            boolean fin = i == frames.length - 1;
            WebSocketFrame frame = i == 0 ? new BinaryWebSocketFrame(fin, 0, Unpooled.wrappedBuffer(data, at, frames[i]))
                    : new ContinuationWebSocketFrame(fin, 0, Unpooled.wrappedBuffer(data, at, frames[i]));
            peers.client.write(frame);
            at += frames[i];
        }
        peers.client.flush();
        peers.exchange();
    }

    /** The server at the defaults decodes what a client with room to spare sends. */
    private static DeflatePeers serverAtTheLimit() {
        return new DeflatePeers(DeflatePeers.client(PerMessageDeflateClientNegotiator.builder().maxInflatedMessage(ROOMY)
                .build(), ROOMY, ROOMY), WebSocketServerProtocolHandler.builder("/ws")
                .extensions(PerMessageDeflateServerNegotiator.acceptAll()));
    }

    /** The client at the defaults decodes the echo of a server with room to spare. */
    private static DeflatePeers clientAtTheLimit() {
        return new DeflatePeers(DeflatePeers.client(PerMessageDeflateClientNegotiator.standard(), LIMIT, LIMIT),
                WebSocketServerProtocolHandler.builder("/ws").maxPayload(ROOMY, ROOMY)
                        .extensions(PerMessageDeflateServerNegotiator.builder().maxInflatedMessage(ROOMY).build()));
    }

    @Test
    void theServerAcceptsUpToTheLimitInflatedAndRefusesOneByteMoreWith1009() {
        List<String> outcomes = new ArrayList<>();
        for (boolean incompressible : new boolean[] {true, false}) {
            for (int n : new int[] {LIMIT - 1, LIMIT, LIMIT + 1}) {
                byte[] data = incompressible ? random(n) : compressible(n);
                for (int[] frames : fragmentings(n)) {
                    DeflatePeers peers = serverAtTheLimit();
                    send(peers, data, frames);
                    String what = (incompressible ? "random " : "text ") + n + " in " + frames.length + " frames";
                    assertTrue(peers.compressedFromClient > 0, what + " went compressed");
                    byte[] echo = peers.takeEcho();
                    if (n <= LIMIT) {
                        assertArrayEquals(data, echo, what);
                        assertEquals(List.of(), peers.closesToClient, what);
                        assertTrue(peers.server.isOpen(), what);
                    } else {
                        assertTrue(echo.length < n, what + ": echoed " + echo.length);
                        assertEquals(List.of(CloseWebSocketFrame.MESSAGE_TOO_BIG), peers.closesToClient, what);
                        assertFalse(peers.server.isOpen(), what);
                    }
                    outcomes.add(what);
                    peers.close();
                }
            }
        }
        assertEquals(36, outcomes.size());
    }

    @Test
    void theClientAcceptsUpToTheLimitInflatedAndRefusesOneByteMoreWith1009() {
        int cases = 0;
        for (boolean incompressible : new boolean[] {true, false}) {
            for (int n : new int[] {LIMIT - 1, LIMIT, LIMIT + 1}) {
                byte[] data = incompressible ? random(n) : compressible(n);
                for (int[] frames : fragmentings(n)) {
                    DeflatePeers peers = clientAtTheLimit();
                    send(peers, data, frames);
                    String what = (incompressible ? "random " : "text ") + n + " in " + frames.length + " frames";
                    assertTrue(peers.compressedFromServer > 0, what + " came back compressed");
                    byte[] echo = peers.takeEcho();
                    if (n <= LIMIT) {
                        assertArrayEquals(data, echo, what);
                        assertEquals(List.of(), peers.closesToServer, what);
                        assertTrue(peers.client.isOpen(), what);
                    } else {
                        assertTrue(echo.length < n, what + ": received " + echo.length);
                        assertEquals(List.of(CloseWebSocketFrame.MESSAGE_TOO_BIG), peers.closesToServer, what);
                        assertFalse(peers.client.isOpen(), what);
                    }
                    cases++;
                    peers.close();
                }
            }
        }
        assertEquals(36, cases);
    }

    /** The extension's own limit is larger here; the protocol handler's smaller message limit still holds. */
    @Test
    void aCompressedMessageIsHeldToTheProtocolHandlersMessageLimit() {
        DeflatePeers peers = new DeflatePeers(DeflatePeers.client(PerMessageDeflateClientNegotiator.standard(), ROOMY, ROOMY),
                WebSocketServerProtocolHandler.builder("/ws").maxPayload(4096, 4096)
                        .extensions(PerMessageDeflateServerNegotiator.builder().maxInflatedMessage(ROOMY).build()));
        send(peers, compressible(4096), new int[] {4096});
        assertEquals(4096, peers.takeEcho().length);
        send(peers, compressible(4097), new int[] {4097});
        assertEquals(0, peers.takeEcho().length);
        assertEquals(List.of(CloseWebSocketFrame.MESSAGE_TOO_BIG), peers.closesToClient);
        peers.close();
    }
}
