package io.rill.channel.local;

import io.rill.channel.IoHandle;

/**
 * The {@link io.rill.channel.IoHandle} of an in-VM channel. There is no readiness to watch: data
 * moves between local channels as tasks on their event loops, so a {@link LocalIoHandler} only
 * keeps the handles to close them when its loop shuts down.
 */
interface LocalIoHandle extends IoHandle {
}
