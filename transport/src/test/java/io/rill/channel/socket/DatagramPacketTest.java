package io.rill.channel.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/** A datagram as a holder of its payload: the counts are the payload's, the copies keep both addresses. */
class DatagramPacketTest {

    private static final InetSocketAddress US = new InetSocketAddress("127.0.0.1", 9000);
    private static final InetSocketAddress PEER = new InetSocketAddress("127.0.0.1", 9001);

    private static DatagramPacket received() {
        ByteBuf payload = Unpooled.directBuffer(4).writeBytes("ping".getBytes(StandardCharsets.US_ASCII));
        return new DatagramPacket(payload, US, PEER);
    }

    @Test
    void retainAndReleaseCountThePayload() {
        DatagramPacket packet = received();
        assertSame(packet, packet.retain());
        assertSame(packet, packet.touch("handed to the application"));
        assertEquals(2, packet.content().refCnt());
        assertFalse(packet.release());
        assertTrue(packet.release());
        assertEquals(0, packet.content().refCnt());
    }

    @Test
    void copiesKeepBothAddresses() {
        DatagramPacket packet = received();
        DatagramPacket copy = packet.copy();
        DatagramPacket shared = packet.retainedDuplicate();
        for (DatagramPacket p : new DatagramPacket[] {copy, shared, packet.duplicate()}) {
            assertSame(US, p.recipient());
            assertSame(PEER, p.sender());
            assertEquals("ping", p.content().toString(StandardCharsets.US_ASCII));
        }
        assertNotSame(packet.content(), copy.content());
        assertTrue(copy.release(), "the copy owns its own bytes");
        assertEquals(2, packet.refCnt(), "the retained duplicate holds one more count of the payload");
        shared.release();
        assertEquals(1, packet.refCnt(), "releasing the retained duplicate gives its count back");
        assertTrue(packet.release());
    }

    @Test
    void toStringShowsTheAddressesAndTheSizeNotTheBytes() {
        DatagramPacket packet = received();
        assertEquals("DatagramPacket(" + PEER + " => " + US + ", 4 bytes)", packet.toString());
        assertTrue(packet.release());
    }
}
