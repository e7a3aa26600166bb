package io.rill.channel.socket;

import java.io.IOException;
import java.net.SocketOption;
import java.nio.channels.NetworkChannel;

/**
 * How a socket config reaches its real socket: a transport hands one to the config, so options
 * are read from and written to the kernel, never cached.
 */
public interface SocketOptionAccess {

    /** True if the socket has {@code option} (Unix-domain sockets have no TCP or IP options). */
    boolean supportsSocketOption(SocketOption<?> option);

    <T> T getSocketOption(SocketOption<T> option) throws IOException;

    <T> void setSocketOption(SocketOption<T> option, T value) throws IOException;

    /** Access through a JDK channel; {@code owner} names the socket in error messages. */
    static SocketOptionAccess of(NetworkChannel socket, Object owner) {
        return new SocketOptionAccess() {
            @Override
            public boolean supportsSocketOption(SocketOption<?> option) {
                return socket.supportedOptions().contains(option);
            }

            @Override
            public <T> T getSocketOption(SocketOption<T> option) throws IOException {
                return socket.getOption(option);
            }

            @Override
            public <T> void setSocketOption(SocketOption<T> option, T value) throws IOException {
                socket.setOption(option, value);
            }

            @Override
            public String toString() {
                return owner.toString();
            }
        };
    }
}
