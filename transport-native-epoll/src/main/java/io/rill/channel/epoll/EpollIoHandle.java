package io.rill.channel.epoll;

import io.rill.channel.IoHandle;

/** An {@link IoHandle} that is a Linux file descriptor, watched by an {@link EpollIoHandler}. */
public interface EpollIoHandle extends IoHandle {

    /** {@return the descriptor; fixed while registered} */
    int fd();

    /**
     * Loads what handling this handle's next event reads first, so that the handler can fetch the
     * memory of several ready handles at once; returns a value derived from it, which the caller keeps.
     *
     * @return a value of no meaning
     */
    default int warmUp() {
        return 0;
    }

    /** Closes the handle's channel; reports failures through the channel, never by throwing. */
    @Override
    void close();
}
