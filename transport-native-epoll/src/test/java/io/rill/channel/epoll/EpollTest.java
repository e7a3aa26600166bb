package io.rill.channel.epoll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import io.rill.util.PlatformInfo;

/** Loading the library, and errno turned into exceptions with the system's message. */
class EpollTest {

    @Test
    void isAvailableOnLinuxAndOtherwiseSaysWhy() {
        if (PlatformInfo.isLinux()) {
            assertNull(Epoll.unavailabilityCause(), () -> "cause: " + Epoll.unavailabilityCause());
            assertTrue(Epoll.isAvailable());
            Epoll.ensureAvailability();
        } else {
            UnsatisfiedLinkError error = assertThrows(UnsatisfiedLinkError.class, Epoll::ensureAvailability);
            assertTrue(error.getMessage().contains("Linux"), error.getMessage());
        }
    }

    @Test
    void errnoBecomesANativeIoExceptionWithTheSystemsMessage() {
        Assumptions.assumeTrue(Epoll.isAvailable());
        IOException e = Errors.newException("read", Errors.ECONNRESET);
        assertEquals(NativeIoException.class, e.getClass());
        assertEquals("read(..) failed: Connection reset by peer", e.getMessage());
        assertEquals(Errors.ECONNRESET, ((NativeIoException) e).errno());
    }

    @Test
    void aRefusedConnectIsAConnectExceptionNamingTheAddress() throws IOException {
        Assumptions.assumeTrue(Epoll.isAvailable());
        InetSocketAddress nobody;
        try (java.nio.channels.ServerSocketChannel s = java.nio.channels.ServerSocketChannel.open()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            nobody = (InetSocketAddress) s.getLocalAddress();
        }
        LinuxSocket socket = LinuxSocket.newStream();
        try {
            if (!socket.connect(nobody)) {
                // loopback refusals usually come back at once; else wait for the outcome like the loop would
                ConnectException e = assertThrows(ConnectException.class, () -> awaitConnect(socket, nobody));
                assertTrue(e.getMessage().startsWith("Connection refused"), e.getMessage());
            }
        } catch (ConnectException e) {
            assertEquals("Connection refused: " + nobody, e.getMessage());
        } finally {
            socket.close();
        }
    }

    private static void awaitConnect(LinuxSocket socket, InetSocketAddress remote) throws IOException {
        for (int i = 0; i < 1000; i++) {
            socket.finishConnect(remote);
            Thread.onSpinWait();
        }
    }
}
