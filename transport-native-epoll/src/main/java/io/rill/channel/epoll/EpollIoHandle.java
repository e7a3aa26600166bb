package io.rill.channel.epoll;

import io.rill.channel.IoHandle;

/** An {@link IoHandle} that is a Linux file descriptor, watched by an {@link EpollIoHandler}. */
public interface EpollIoHandle extends IoHandle {

    /** {@return the descriptor; fixed while registered} */
    int fd();

    /** Closes the handle's channel; reports failures through the channel, never by throwing. */
    @Override
    void close();
}
