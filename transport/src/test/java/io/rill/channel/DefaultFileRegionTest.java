package io.rill.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hooks for transports that send a region's file themselves (sendfile on their own descriptor). */
class DefaultFileRegionTest {

    @TempDir
    Path dir;

    @Test
    void aRegionOfAPathNamesItAndCountsBytesATransportSentItself() throws Exception {
        Path file = Files.write(dir.resolve("f.bin"), new byte[100]);
        DefaultFileRegion region = new DefaultFileRegion(file, 10, 50);
        assertEquals(file, region.path());
        region.addTransferred(20);
        region.addTransferred(30);
        assertEquals(50, region.transferred());
        assertThrows(IllegalArgumentException.class, () -> region.addTransferred(1), "past the region's end");
        assertThrows(IllegalArgumentException.class, () -> region.addTransferred(-1));
        region.release();
    }

    @Test
    void aRegionOfAFileChannelHasNoPath() throws Exception {
        Path file = Files.write(dir.resolve("g.bin"), new byte[10]);
        DefaultFileRegion region = new DefaultFileRegion(FileChannel.open(file, StandardOpenOption.READ), 0, 10);
        assertNull(region.path());
        region.release();
    }
}
