package io.rill.channel.epoll;

import io.rill.channel.ChannelOption;

/**
 * The Linux socket options of the epoll channels, beyond the standard {@link ChannelOption}s.
 * Each is read back from the socket, so {@code getOption} shows what the kernel uses. See
 * {@code tcp(7)}, {@code ip(7)} and {@code socket(7)} for their meaning.
 */
public final class EpollChannelOption {

    // Linux's bounds (include/net/tcp.h): setsockopt refuses values beyond them with EINVAL.
    private static final int MAX_TCP_KEEPIDLE = 32767;
    private static final int MAX_TCP_KEEPINTVL = 32767;
    private static final int MAX_TCP_KEEPCNT = 127;

    /** SO_REUSEPORT: several sockets (e.g. one per event loop) bind one port; the kernel spreads connections. */
    public static final ChannelOption<Boolean> SO_REUSEPORT = ChannelOption.newInstance("SO_REUSEPORT", Boolean.class);
    /** TCP_CORK: hold partial frames until uncorked or 200 ms pass. */
    public static final ChannelOption<Boolean> TCP_CORK = ChannelOption.newInstance("TCP_CORK", Boolean.class);
    /** TCP_NOTSENT_LOWAT: writable only while fewer unsent bytes than this are queued. */
    public static final ChannelOption<Integer> TCP_NOTSENT_LOWAT =
            ChannelOption.newInstance("TCP_NOTSENT_LOWAT", 0, Integer.MAX_VALUE);
    /** TCP_QUICKACK: acknowledge at once instead of delaying (the kernel may turn it off again). */
    public static final ChannelOption<Boolean> TCP_QUICKACK = ChannelOption.newInstance("TCP_QUICKACK", Boolean.class);
    /** TCP_KEEPIDLE: idle seconds before the first keep-alive probe (with SO_KEEPALIVE). */
    public static final ChannelOption<Integer> TCP_KEEPIDLE =
            ChannelOption.newInstance("TCP_KEEPIDLE", 1, MAX_TCP_KEEPIDLE);
    /** TCP_KEEPINTVL: seconds between keep-alive probes. */
    public static final ChannelOption<Integer> TCP_KEEPINTVL =
            ChannelOption.newInstance("TCP_KEEPINTVL", 1, MAX_TCP_KEEPINTVL);
    /** TCP_KEEPCNT: unanswered probes before the connection is dropped. */
    public static final ChannelOption<Integer> TCP_KEEPCNT =
            ChannelOption.newInstance("TCP_KEEPCNT", 1, MAX_TCP_KEEPCNT);
    /** TCP_USER_TIMEOUT: milliseconds sent data may stay unacknowledged before the connection is dropped. */
    public static final ChannelOption<Integer> TCP_USER_TIMEOUT =
            ChannelOption.newInstance("TCP_USER_TIMEOUT", 0, Integer.MAX_VALUE);
    /** TCP_FASTOPEN (server): length of the queue of pending fast-open requests; 0 disables. */
    public static final ChannelOption<Integer> TCP_FASTOPEN =
            ChannelOption.newInstance("TCP_FASTOPEN", 0, Integer.MAX_VALUE);
    /** TCP_FASTOPEN_CONNECT (client): send the first write's data in the SYN when the server allows it. */
    public static final ChannelOption<Boolean> TCP_FASTOPEN_CONNECT =
            ChannelOption.newInstance("TCP_FASTOPEN_CONNECT", Boolean.class);
    /** IP_FREEBIND: bind to an address not (yet) configured on this host. */
    public static final ChannelOption<Boolean> IP_FREEBIND = ChannelOption.newInstance("IP_FREEBIND", Boolean.class);
    /** IP_TRANSPARENT: transparent proxying; needs CAP_NET_ADMIN. */
    public static final ChannelOption<Boolean> IP_TRANSPARENT = ChannelOption.newInstance("IP_TRANSPARENT", Boolean.class);
    /** Edge- or level-triggered readiness for this channel; edge by default. */
    public static final ChannelOption<EpollMode> EPOLL_MODE = ChannelOption.newInstance("EPOLL_MODE", EpollMode.class);

    /** A Unix-domain channel reads passed descriptors ({@link FileDescriptor}s) instead of bytes; off by default. */
    public static final ChannelOption<Boolean> DOMAIN_READ_FILE_DESCRIPTORS =
            ChannelOption.newInstance("DOMAIN_READ_FILE_DESCRIPTORS", Boolean.class);

    private EpollChannelOption() {
    }
}
