package io.rill.channel;

import java.io.IOException;
import java.nio.channels.WritableByteChannel;

import io.rill.buffer.ReferenceCounted;

/**
 * A part of a file written to a channel without copying it through the heap: the transport hands
 * it to {@link java.nio.channels.FileChannel#transferTo}, which on Linux becomes
 * {@code sendfile(2)}. Reference counted like a buffer: the channel releases it once written or
 * failed, and the last release closes the file.
 */
public interface FileRegion extends ReferenceCounted {

    /** {@return where the region starts in the file} */
    long position();

    /** {@return the number of bytes in the region} */
    long count();

    /** {@return the bytes already written; the region is complete when this equals {@link #count()}} */
    long transferred();

    /**
     * Writes as much of the rest of the region as {@code target} takes now and returns how many
     * bytes that was (0 when the target is full). Throws if the file ended before the region did.
     *
     * @param target where to write
     * @return the bytes written by this call
     * @throws IOException if reading the file or writing the target fails
     */
    long transferTo(WritableByteChannel target) throws IOException;

    @Override
    FileRegion retain();

    @Override
    FileRegion retain(int increment);

    @Override
    FileRegion touch();

    @Override
    FileRegion touch(Object hint);
}
