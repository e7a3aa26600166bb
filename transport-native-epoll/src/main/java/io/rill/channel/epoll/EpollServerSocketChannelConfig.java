package io.rill.channel.epoll;

import java.util.Map;

import io.rill.channel.ChannelOption;
import io.rill.channel.socket.ServerSocketChannelConfig;

/**
 * The options of an {@link EpollServerSocketChannel}: those of {@link ServerSocketChannelConfig}
 * plus {@code SO_REUSEPORT} (set it before bind on every socket sharing the port),
 * {@code TCP_FASTOPEN}, {@code IP_FREEBIND}, {@code IP_TRANSPARENT} and the {@link EpollMode}.
 */
public final class EpollServerSocketChannelConfig extends ServerSocketChannelConfig {

    private static final ChannelOption<?>[] LISTED = {EpollChannelOption.SO_REUSEPORT, EpollChannelOption.TCP_FASTOPEN,
        EpollChannelOption.IP_FREEBIND, EpollChannelOption.IP_TRANSPARENT, EpollChannelOption.EPOLL_MODE};

    private final LinuxOptions linux;

    EpollServerSocketChannelConfig(AbstractEpollChannel channel, LinuxOptions linux) {
        super(channel, linux);
        this.linux = linux;
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
        Map<ChannelOption<?>, Object> options = super.getOptions();
        linux.putAll(options, LISTED);
        return options;
    }

    @Override
    public <T> T getOption(ChannelOption<T> option) {
        return LinuxOptions.handles(option) ? linux.get(option) : super.getOption(option);
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        return LinuxOptions.handles(option) ? linux.set(option, value) : super.setOption(option, value);
    }

    /**
     * {@return true if SO_REUSEPORT is set, letting several sockets listen on one port with the kernel spreading
     * connections}
     */
    public boolean isReusePort() {
        return getOption(EpollChannelOption.SO_REUSEPORT);
    }

    /**
     * Sets SO_REUSEPORT; it only takes effect when set before bind.
     *
     * @param reusePort true to share the port
     * @return this config
     */
    public EpollServerSocketChannelConfig setReusePort(boolean reusePort) {
        setOption(EpollChannelOption.SO_REUSEPORT, reusePort);
        return this;
    }
}
