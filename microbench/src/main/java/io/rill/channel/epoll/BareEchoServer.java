package io.rill.channel.epoll;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The JVM's floor for echo-load.sh: the loop of {@code microbench/load/echo-server.c} written in Java
 * over Rill's JNI calls (package-private, hence this package), with no channel, pipeline or buffer
 * pool. Edge-triggered, one read into a buffer all connections share and one write back per
 * message. Against the C server it shows what the JVM itself costs per round trip (JNI crossings,
 * its own memory); against Rill's {@code echo-server}, what the framework costs.
 *
 * <p>A measuring instrument, not a server: a connection whose echo the socket cannot take whole is
 * dropped (the load generator's one message in flight always fits).
 *
 * <pre>
 *   java -cp microbench/target/benchmarks.jar io.rill.channel.epoll.BareEchoServer PORT
 * </pre>
 */
public final class BareEchoServer {

    private static final int MAX_EVENTS = 4096;
    private static final int BUFFER = 65536;

    private BareEchoServer() {
    }

    /**
     * Serves until killed.
     *
     * @param args the port
     * @throws IOException if the port cannot be bound
     */
    public static void main(String[] args) throws IOException {
        Epoll.ensureAvailability();
        LinuxSocket listener = LinuxSocket.newStream();
        Native.setOption(listener.fd(), Native.OPT_SO_REUSEADDR, 1);
        listener.bind(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])));
        listener.listen(4096);
        int lfd = listener.fd();
        int epfd = Errors.check("epoll_create", Native.epollCreate());
        Errors.check("epoll_ctl", Native.epollCtl(epfd, Native.EPOLL_CTL_ADD, lfd, Native.EPOLLIN, 0));
        int eventSize = Native.epollEventSize();
        int dataOffset = Native.epollDataOffset();
        ByteBuffer events = ByteBuffer.allocateDirect(MAX_EVENTS * eventSize).order(ByteOrder.nativeOrder());
        long eventsAddress = Native.bufferAddress(events);
        long buffer = Native.bufferAddress(ByteBuffer.allocateDirect(BUFFER));
        byte[] peer = new byte[64];
        int edge = Native.EPOLLIN | Native.EPOLLOUT | Native.EPOLLRDHUP | Native.EPOLLET;
        System.out.println("Listening on " + args[0]);
        for (;;) {
            int ready = Native.epollWait(epfd, eventsAddress, MAX_EVENTS, -1);
            for (int i = 0; i < ready; i++) {
                int fd = (int) events.getLong(i * eventSize + dataOffset); // low half: the descriptor
                if (fd == lfd) {
                    for (int c; (c = Native.accept(lfd, peer)) >= 0; ) {
                        Native.setOption(c, Native.OPT_TCP_NODELAY, 1);
                        Native.epollCtl(epfd, Native.EPOLL_CTL_ADD, c, edge, 0);
                    }
                } else {
                    echo(fd, buffer);
                }
            }
        }
    }

    /** Echoes until the socket is empty; closes it at end of stream, on an error or when it is full. */
    private static void echo(int fd, long buffer) {
        for (;;) {
            int n = Native.read(fd, buffer, BUFFER);
            if (n == -Errors.EAGAIN) {
                return;
            }
            if (n <= 0 || Native.write(fd, buffer, n) != n) {
                Native.close(fd); // closing also leaves the epoll set
                return;
            }
            if (n < BUFFER) {
                return; // a short read emptied the socket: the next arrival is a new edge
            }
        }
    }
}
