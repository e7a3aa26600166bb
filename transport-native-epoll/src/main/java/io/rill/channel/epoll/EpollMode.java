package io.rill.channel.epoll;

/** How a channel asks epoll for readiness; set per channel with {@link EpollChannelOption#EPOLL_MODE}. */
public enum EpollMode {
    /** One event per change ({@code EPOLLET}): fewer wake-ups; the channel reads until the socket is drained or re-arms itself. */
    EDGE_TRIGGERED,
    /** An event for as long as the socket is ready: simpler, costs an event per loop turn while data waits. */
    LEVEL_TRIGGERED
}
