package io.rill.channel.nio;

import java.net.StandardProtocolFamily;
import java.nio.channels.SocketChannel;

import io.rill.channel.Channel;
import io.rill.channel.EventLoop;

/**
 * A {@link NioSocketChannel} over a Unix-domain stream socket ({@code UnixDomainSocketAddress},
 * JDK 16+). Everything but the family is shared; this class exists so bootstraps can name it
 * ({@code .channel(NioDomainSocketChannel.class)} or {@code NioDomainSocketChannel::new}).
 * TCP and IP options ({@code TCP_NODELAY}, {@code SO_KEEPALIVE}, {@code IP_TOS}, {@code SO_LINGER})
 * are reported unsupported.
 */
public class NioDomainSocketChannel extends NioSocketChannel {

    /**
     * A new, unconnected Unix-domain channel on {@code loop}.
     *
     * @param loop a loop running a {@link NioIoHandler}
     */
    public NioDomainSocketChannel(EventLoop loop) {
        super(loop, StandardProtocolFamily.UNIX);
    }

    /**
     * Wraps an accepted Unix-domain {@code socket}.
     *
     * @param parent the server channel that accepted it
     * @param loop a loop running a {@link NioIoHandler}
     * @param socket the JDK channel; the Rill channel owns it from now on
     */
    public NioDomainSocketChannel(Channel parent, EventLoop loop, SocketChannel socket) {
        super(parent, loop, socket);
    }
}
