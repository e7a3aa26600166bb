package io.rill.channel.epoll;

import java.util.Map;

import io.rill.channel.ChannelOption;
import io.rill.channel.socket.SocketChannelConfig;

/**
 * The options of an {@link EpollSocketChannel}: those of {@link SocketChannelConfig}
 * ({@code TCP_NODELAY} on by default) plus the Linux ones of {@link EpollChannelOption}, all read
 * back from the socket, and the channel's {@link EpollMode}.
 */
public final class EpollSocketChannelConfig extends SocketChannelConfig {

    private static final ChannelOption<?>[] LISTED = {EpollChannelOption.TCP_CORK, EpollChannelOption.TCP_NOTSENT_LOWAT,
        EpollChannelOption.TCP_QUICKACK, EpollChannelOption.TCP_KEEPIDLE, EpollChannelOption.TCP_KEEPINTVL,
        EpollChannelOption.TCP_KEEPCNT, EpollChannelOption.TCP_USER_TIMEOUT, EpollChannelOption.IP_FREEBIND,
        EpollChannelOption.IP_TRANSPARENT, EpollChannelOption.SO_REUSEPORT, EpollChannelOption.EPOLL_MODE};

    private final LinuxOptions linux;
    private final AbstractEpollChannel epollChannel;
    /** Unix-domain only: read passed descriptors instead of bytes. */
    private volatile boolean readFileDescriptors;

    EpollSocketChannelConfig(AbstractEpollChannel channel, LinuxOptions linux) {
        super(channel, linux);
        this.linux = linux;
        this.epollChannel = channel;
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
        Map<ChannelOption<?>, Object> options = super.getOptions();
        linux.putAll(options, LISTED);
        return options;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getOption(ChannelOption<T> option) {
        if (option == EpollChannelOption.DOMAIN_READ_FILE_DESCRIPTORS && epollChannel.socket.isUnix()) {
            return (T) (Boolean) readFileDescriptors;
        }
        return LinuxOptions.handles(option) ? linux.get(option) : super.getOption(option);
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        if (option == EpollChannelOption.DOMAIN_READ_FILE_DESCRIPTORS && epollChannel.socket.isUnix()) {
            option.validate(value);
            readFileDescriptors = (Boolean) value;
            return true;
        }
        return LinuxOptions.handles(option) ? linux.set(option, value) : super.setOption(option, value);
    }

    /** {@return true if TCP_CORK is set: partial frames are held back until the cork is removed or a frame fills} */
    public boolean isTcpCork() {
        return getOption(EpollChannelOption.TCP_CORK);
    }

    /**
     * Sets TCP_CORK.
     *
     * @param cork true to hold back partial frames
     * @return this config
     */
    public EpollSocketChannelConfig setTcpCork(boolean cork) {
        setOption(EpollChannelOption.TCP_CORK, cork);
        return this;
    }

    /** {@return true if a Unix-domain channel reads {@link FileDescriptor}s instead of bytes} */
    public boolean isReadFileDescriptors() {
        return readFileDescriptors;
    }

    /** {@return whether the channel is registered edge- or level-triggered} */
    public EpollMode getEpollMode() {
        return epollChannel.epollMode();
    }

    /**
     * Switches the channel between edge- and level-triggered registration.
     *
     * @param mode the new mode
     * @return this config
     */
    public EpollSocketChannelConfig setEpollMode(EpollMode mode) {
        setOption(EpollChannelOption.EPOLL_MODE, mode);
        return this;
    }
}
