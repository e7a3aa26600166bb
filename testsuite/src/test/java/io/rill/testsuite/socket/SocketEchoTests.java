package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelOption;

/** Bytes written by a client come back unchanged from an echo server, whatever their size and split. */
abstract class SocketEchoTests extends AbstractSocketTest {

    /** Around every power-of-two edge a read or write buffer might have, up to 1 MiB. */
    private static final int[] SIZES = {1, 2, 3, 63, 64, 65, 1023, 1024, 1025, 2048, 8191, 8192, 16384, 65535, 65536,
        65537, 131072, 300_000, 1 << 20};

    /**
     * Concurrent connections of {@link #manyConnectionsEchoAtOnce()}: the issue asks for 2,000.
     * Each costs two descriptors (client and accepted side); 2,000 passes in a few seconds here
     * with a descriptor limit of 20,000 and a listen backlog raised to 4,096.
     */
    static final int CONCURRENT_CONNECTIONS = 2_000;

    @Test
    void echoesSeededRandomDataOfEverySizeSplitAtRandomPoints() throws Exception {
        Channel server = startServer(new EchoHandler());
        Random random = new Random(0x5eed);
        for (int size : SIZES) {
            byte[] data = new byte[size];
            random.nextBytes(data);
            ByteCollector collector = new ByteCollector();
            Channel client = connect(server, collector);
            writeInRandomPieces(client, data, random);
            assertArrayEquals(data, collector.await(size), transport + ": echo of " + size + " bytes");
            await(client.close());
        }
    }

    @Test
    void echoesASmallMessageSplitAtEveryIndex() throws Exception {
        Channel server = startServer(new EchoHandler());
        ByteCollector collector = new ByteCollector();
        Channel client = connect(server, collector);
        byte[] data = new byte[100];
        new Random(7).nextBytes(data);
        int offset = 0;
        for (int split = 0; split <= data.length; split++) {
            client.write(copy(client, data, 0, split));
            await(client.writeAndFlush(copy(client, data, split, data.length - split)));
            assertArrayEquals(data, collector.await(offset, data.length), "split at " + split);
            offset += data.length;
        }
    }

    @Test
    void echoesThousandsOfOneByteWritesFlushedOnce() throws Exception {
        Channel server = startServer(new EchoHandler());
        ByteCollector collector = new ByteCollector();
        Channel client = connect(server, collector);
        byte[] data = new byte[5000];
        new Random(11).nextBytes(data);
        for (int i = 0; i < data.length; i++) {
            client.write(copy(client, data, i, 1));
        }
        client.flush();
        assertArrayEquals(data, collector.await(data.length));
    }

    @Test
    void manyConnectionsEchoAtOnce() throws Exception {
        Channel server = startServer(serverBootstrap().option(ChannelOption.SO_BACKLOG, 4096)
                .childHandler(new EchoHandler()));
        List<Channel> clients = new ArrayList<>();
        List<ByteCollector> collectors = new ArrayList<>();
        List<io.rill.util.concurrent.Future<Channel>> connects = new ArrayList<>();
        for (int i = 0; i < CONCURRENT_CONNECTIONS; i++) {
            ByteCollector collector = new ByteCollector();
            collectors.add(collector);
            connects.add(clientBootstrap().handler(collector).connect(server.localAddress()));
        }
        for (io.rill.util.concurrent.Future<Channel> f : connects) {
            clients.add(track(await(f)));
        }
        byte[] data = new byte[256];
        for (int i = 0; i < clients.size(); i++) {
            new Random(i).nextBytes(data);
            clients.get(i).writeAndFlush(copy(clients.get(i), data, 0, data.length));
        }
        for (int i = 0; i < clients.size(); i++) {
            new Random(i).nextBytes(data);
            assertArrayEquals(data, collectors.get(i).await(data.length), "connection " + i);
        }
        for (Channel client : clients) {
            client.close();
        }
        for (Channel client : clients) {
            await(client.closeFuture());
        }
        assertEquals(CONCURRENT_CONNECTIONS, clients.size());
    }

    /** Writes {@code data} in random pieces (1 byte to 64 KiB), flushing after some of them. */
    private static void writeInRandomPieces(Channel ch, byte[] data, Random random) {
        int offset = 0;
        while (offset < data.length) {
            int piece = Math.min(data.length - offset, 1 + random.nextInt(random.nextBoolean() ? 16 : 65536));
            ch.write(copy(ch, data, offset, piece));
            offset += piece;
            if (random.nextInt(4) == 0) {
                ch.flush();
            }
        }
        ch.flush();
    }

    static ByteBuf copy(Channel ch, byte[] data, int offset, int length) {
        return ch.alloc().buffer(Math.max(length, 1)).writeBytes(data, offset, length);
    }
}
