package io.rill.channel.epoll;

import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.rill.channel.ChannelOutboundBuffer;
import io.rill.channel.DefaultFileRegion;
import io.rill.channel.FileRegion;

/**
 * Writes the {@link FileRegion}s of one channel. A {@link DefaultFileRegion} made from a path
 * goes out with {@code sendfile(2)}, zero-copy, from a descriptor this writer opens (a JDK
 * {@code FileChannel} does not expose its own) and closes when the region is done, when the next
 * region starts or when the channel closes. Any other region copies itself through
 * {@link DirectIo} with {@code transferTo}.
 */
final class FileRegionWriter {

    private final LinuxSocket socket;
    private final DirectIo io;
    /** The region whose file is open in fileFd; null when none is. Loop-confined. */
    private DefaultFileRegion openRegion;
    private int fileFd = -1;

    FileRegionWriter(LinuxSocket socket, DirectIo io) {
        this.socket = socket;
        this.io = io;
    }

    /** Writes what the socket takes of {@code region}; false if the socket is full. Removes it when complete. */
    boolean write(ChannelOutboundBuffer in, FileRegion region) throws IOException {
        boolean progressed;
        long before = region.transferred();
        if (region instanceof DefaultFileRegion file && file.path() != null) {
            progressed = region.transferred() >= region.count() || sendfile(file);
        } else {
            progressed = region.transferred() >= region.count() || region.transferTo(io) > 0;
        }
        if (!progressed) {
            return false;
        }
        in.countWritten(region.transferred() - before);
        if (region.transferred() >= region.count()) {
            close();
            in.remove();
        }
        return true;
    }

    /** One sendfile call; false if the socket is full. */
    private boolean sendfile(DefaultFileRegion region) throws IOException {
        if (openRegion != region) {
            close();
            fileFd = Errors.check("open " + region.path(), Native.openReadOnly(region.path().toString()));
            openRegion = region;
        }
        long at = region.position() + region.transferred();
        long r = Native.sendfile(socket.fd(), fileFd, at, region.count() - region.transferred());
        if (r == -Errors.EAGAIN) {
            return false;
        }
        if (Errors.check("sendfile", r) == 0) {
            throw endOfFile(region.path(), region);
        }
        region.addTransferred(r);
        return true;
    }

    /** sendfile sends 0 bytes only when the file ended before the region (a full socket is EAGAIN). */
    private static EOFException endOfFile(Path path, FileRegion region) throws IOException {
        return new EOFException("the file " + path + " has " + Files.size(path) + " bytes, shorter than the region "
                + region.position() + "+" + region.count());
    }

    /** Closes the open file, if any; the channel calls it when it closes. */
    void close() {
        if (fileFd >= 0) {
            Native.close(fileFd);
            fileFd = -1;
        }
        openRegion = null;
    }
}
