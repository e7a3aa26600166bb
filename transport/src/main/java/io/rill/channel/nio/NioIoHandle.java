package io.rill.channel.nio;

import java.nio.channels.SelectableChannel;

import io.rill.channel.IoHandle;

/** An {@link IoHandle} backed by a JDK {@link SelectableChannel}. */
public interface NioIoHandle extends IoHandle {

    /** {@return the channel to register with the selector} It is switched to non-blocking mode on registration. */
    SelectableChannel selectableChannel();
}
