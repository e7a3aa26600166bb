package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.channel.epoll.Epoll;

/**
 * {@code udp-echo} as a user runs it, over both transports: every datagram (empty, small, the
 * largest answered whole) comes back once and unchanged to the socket that sent it, from two
 * peers at once; a longer one comes back cut to the limit.
 */
class UdpEchoServerTest {

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void everyDatagramComesBackOnceAndUnchanged(String transport) throws Exception {
        assumeTrue(transport.equals("nio") || Epoll.isAvailable(), "epoll is not available here");
        try (ForkedExample server = new ForkedExample("udp-echo", "--port", "0", "--transport", transport);
             DatagramSocket a = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
             DatagramSocket b = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            InetSocketAddress target = new InetSocketAddress("127.0.0.1", server.port());
            a.setSoTimeout(10_000);
            b.setSoTimeout(10_000);
            Map<String, byte[]> sentByA = new HashMap<>();
            Map<String, byte[]> sentByB = new HashMap<>();
            int[] sizes = {100, 1400, UdpEchoServer.MAX_DATAGRAM};
            for (int i = 0; i < 40; i++) {
                DatagramSocket from = i % 2 == 0 ? a : b;
                // One empty and one 1-byte datagram (to A and B): too short for a number, told apart by size.
                byte[] datagram = datagram(i, i < 2 ? i : sizes[i % sizes.length]);
                (i % 2 == 0 ? sentByA : sentByB).put(key(datagram), datagram);
                from.send(new DatagramPacket(datagram, datagram.length, target));
            }
            receiveExactly(a, sentByA);
            receiveExactly(b, sentByB);

            byte[] tooLong = datagram(99, UdpEchoServer.MAX_DATAGRAM + 500);
            a.send(new DatagramPacket(tooLong, tooLong.length, target));
            byte[] back = receive(a);
            assertArrayEquals(Arrays.copyOf(tooLong, UdpEchoServer.MAX_DATAGRAM), back);
            a.setSoTimeout(200);
            assertThrows(a, "nothing more: each datagram is answered once");
        }
    }

    /** Receives one answer per datagram in {@code sent}, each equal to one sent and none twice. */
    private static void receiveExactly(DatagramSocket socket, Map<String, byte[]> sent) throws Exception {
        Map<String, byte[]> waiting = new HashMap<>(sent);
        while (!waiting.isEmpty()) {
            byte[] back = receive(socket);
            byte[] expected = waiting.remove(key(back));
            assertTrue(expected != null, "an answer not sent, or sent twice: " + new String(back, StandardCharsets.ISO_8859_1));
            assertArrayEquals(expected, back);
        }
    }

    private static byte[] receive(DatagramSocket socket) throws Exception {
        DatagramPacket packet = new DatagramPacket(new byte[65536], 65536);
        socket.receive(packet);
        return Arrays.copyOf(packet.getData(), packet.getLength());
    }

    private static void assertThrows(DatagramSocket socket, String why) throws Exception {
        try {
            byte[] extra = receive(socket);
            throw new AssertionError(why + ": got " + extra.length + " bytes more");
        } catch (SocketTimeoutException expected) {
            assertEquals(200, socket.getSoTimeout());
        }
    }

    /** Datagram {@code i}: its number first, when it fits. */
    private static byte[] datagram(int i, int size) {
        byte[] bytes = new byte[size];
        byte[] id = ("#" + i + ";").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(id, 0, bytes, 0, Math.min(id.length, size));
        for (int k = id.length; k < size; k++) {
            bytes[k] = (byte) (i * 31 + k);
        }
        return bytes;
    }

    private static String key(byte[] datagram) {
        return datagram.length + ":" + new String(datagram, 0, Math.min(datagram.length, 8), StandardCharsets.ISO_8859_1);
    }
}
