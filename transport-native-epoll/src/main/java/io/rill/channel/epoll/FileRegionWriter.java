package io.rill.channel.epoll;

import java.io.IOException;

import io.rill.channel.ChannelOutboundBuffer;
import io.rill.channel.FileRegion;

/**
 * Writes {@link FileRegion}s of one channel: the region copies itself into the socket through
 * {@link DirectIo} (the JDK's {@code FileChannel.transferTo} to a non-JDK channel reads the file
 * in chunks through a direct buffer, since the descriptor behind a {@code FileChannel} is not
 * reachable without JDK internals).
 */
final class FileRegionWriter {

    private final DirectIo io;

    FileRegionWriter(LinuxSocket socket, DirectIo io) {
        this.io = io;
    }

    /** Writes what the socket takes of {@code region}; false if the socket is full. Removes it when complete. */
    boolean write(ChannelOutboundBuffer in, FileRegion region) throws IOException {
        if (region.transferred() < region.count() && region.transferTo(io) == 0) {
            return false;
        }
        if (region.transferred() >= region.count()) {
            in.remove();
        }
        return true;
    }

    /** The channel closed. */
    void close() {
    }
}
