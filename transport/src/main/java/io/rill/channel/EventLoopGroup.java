package io.rill.channel;

import io.rill.util.concurrent.EventExecutorGroup;

/** A group of {@link EventLoop}s; channels are spread over them by {@link #next()}. */
public interface EventLoopGroup extends EventExecutorGroup {

    @Override
    EventLoop next();
}
