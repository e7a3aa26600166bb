package io.rill.channel.internal;

import java.io.IOException;
import java.net.SocketOption;
import java.nio.channels.NetworkChannel;

/**
 * How a socket config reaches its real socket: a transport hands one to the config, so options
 * are read from and written to the kernel, never cached.
 */
public interface SocketOptionAccess {

    /**
     * {@return true if the socket has {@code option} (Unix-domain sockets have no TCP or IP options)}
     *
     * @param option the option
     */
    boolean supportsSocketOption(SocketOption<?> option);

    /**
     * {@return the value of {@code option}}
     *
     * @param <T> the value type
     * @param option the option
     * @throws IOException if the socket refuses
     */
    <T> T getSocketOption(SocketOption<T> option) throws IOException;

    /**
     * Sets {@code option}.
     *
     * @param <T> the value type
     * @param option the option
     * @param value the new value
     * @throws IOException if the socket refuses
     */
    <T> void setSocketOption(SocketOption<T> option, T value) throws IOException;

    /**
     * Access through a JDK channel; {@code owner} names the socket in error messages.
     *
     * @param socket the JDK channel
     * @param owner names the socket in error messages
     * @return the access
     */
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
