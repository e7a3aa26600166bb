package io.rill.channel;

import io.rill.util.concurrent.EventExecutor;

/**
 * One thread that runs the tasks, timers and I/O of the channels created on it. A channel's
 * events all run here, so its handlers need no locks.
 */
public interface EventLoop extends EventExecutor, EventLoopGroup {

    @Override
    default EventLoop next() {
        return this;
    }
}
