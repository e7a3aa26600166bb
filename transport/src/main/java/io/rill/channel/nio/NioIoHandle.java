package io.rill.channel.nio;

import java.nio.channels.SelectableChannel;

import io.rill.channel.IoHandle;

/** An {@link IoHandle} backed by a JDK {@link SelectableChannel}. */
public interface NioIoHandle extends IoHandle {

    /** The channel to register with the selector; it is switched to non-blocking mode on registration. */
    SelectableChannel selectableChannel();
}
