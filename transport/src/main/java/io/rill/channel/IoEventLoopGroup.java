package io.rill.channel;

/** A group of {@link IoEventLoop}s. */
public interface IoEventLoopGroup extends EventLoopGroup {

    @Override
    IoEventLoop next();
}
