package io.rill.microbench.channel;

import org.openjdk.jmh.annotations.Param;

import io.rill.channel.epoll.Epoll;
import io.rill.channel.epoll.EpollIoHandler;
import io.rill.channel.epoll.EpollServerSocketChannel;
import io.rill.channel.epoll.EpollSocketChannel;

/**
 * {@link SocketBenchmarkBase} over the native epoll transport and over NIO in the same run, so the
 * two are compared under the same conditions: {@code -p transport=epoll,nio} (the default).
 * Fails at setup, naming the reason, where epoll cannot load.
 */
public class EpollSocketChannelBenchmark extends SocketBenchmarkBase {

    @Param({"epoll", "nio"})
    public String transport;

    @Override
    protected Transport transport() {
        if (transport.equals("nio")) {
            return NIO;
        }
        Epoll.ensureAvailability();
        return new Transport(EpollIoHandler.newFactory(), EpollServerSocketChannel.class, EpollSocketChannel.class);
    }
}
