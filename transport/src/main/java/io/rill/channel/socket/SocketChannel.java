package io.rill.channel.socket;

/**
 * A stream connection: TCP, or a Unix-domain stream socket. Its {@link #config()} speaks the
 * socket options ({@code TCP_NODELAY}, {@code SO_KEEPALIVE}, ...); options a family does not
 * have (no {@code TCP_NODELAY} on a Unix-domain socket) are reported unsupported.
 */
public interface SocketChannel extends DuplexChannel {

    @Override
    SocketChannelConfig config();

    @Override
    ServerSocketChannel parent();
}
