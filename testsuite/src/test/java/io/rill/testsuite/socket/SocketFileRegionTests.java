package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rill.channel.Channel;
import io.rill.channel.DefaultFileRegion;
import io.rill.channel.FileRegion;
import io.rill.channel.socket.SocketChannel;

/** Files sent with {@link FileRegion} (sendfile) arrive intact, mixed with buffers; a short file fails the write. */
abstract class SocketFileRegionTests extends AbstractSocketTest {

    @TempDir
    Path dir;

    @BeforeEach
    void requireSocketChannels() throws Exception {
        Channel probe = transport.clientChannel().newChannel(group.next());
        boolean socket = probe instanceof SocketChannel;
        probe.close();
        Assumptions.assumeTrue(socket, transport + " does not write files");
    }

    @Test
    void aFileRegionBetweenTwoBuffersArrivesIntact() throws Exception {
        byte[] content = new byte[3 * 1024 * 1024 + 17];
        new Random(99).nextBytes(content);
        Path file = Files.write(dir.resolve("region.bin"), content);
        BlockingQueue<Channel> accepted = startServerCollectingChildren(serverBootstrap());
        ByteCollector received = new ByteCollector();
        connect(startedServer, received);
        Channel child = take(accepted);
        long from = 1000;
        long count = content.length - 2000;
        FileRegion region = new DefaultFileRegion(file, from, count);
        child.write(SocketEchoTests.copy(child, new byte[] {'<'}, 0, 1));
        child.write(region);
        await(child.writeAndFlush(SocketEchoTests.copy(child, new byte[] {'>'}, 0, 1)));
        byte[] all = received.await((int) count + 2);
        assertEquals('<', all[0]);
        assertArrayEquals(Arrays.copyOfRange(content, (int) from, (int) (from + count)),
                Arrays.copyOfRange(all, 1, 1 + (int) count));
        assertEquals('>', all[all.length - 1]);
        assertEquals(0, child.eventLoop().submit(region::refCnt).get(TIMEOUT_SECONDS, TimeUnit.SECONDS),
                "the channel released the region (and closed its file)");
    }

    @Test
    void aRegionLongerThanItsFileFailsTheWriteInsteadOfWaitingForever() throws Exception {
        Path file = Files.write(dir.resolve("short.bin"), new byte[100]);
        BlockingQueue<Channel> accepted = startServerCollectingChildren(serverBootstrap());
        connect(startedServer, new ByteCollector());
        Channel child = take(accepted);
        Throwable cause = awaitFailure(child.writeAndFlush(new DefaultFileRegion(file, 0, 1000)));
        assertInstanceOf(EOFException.class, cause);
        assertTrue(cause.getMessage().contains("100 bytes"), cause.getMessage());
    }
}
