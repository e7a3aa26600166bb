package io.rill.testsuite.misuse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.bootstrap.ServerBootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.channel.nio.NioIoHandler;
import io.rill.channel.nio.NioServerSocketChannel;
import io.rill.util.concurrent.DefaultThreadFactory;

/** How Rill reports an API mistake a Netty user makes: once, clearly, from the class that saw it. */
class HandlerReuseReportTest {

    private final MultiThreadIoEventLoopGroup group =
            new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("reuse-test", true), NioIoHandler.newFactory());

    @AfterEach
    void stop() {
        assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS));
    }

    /**
     * A user's mistake made on every connection: one non-sharable instance added by an
     * initializer to each accepted channel. Each refused channel is reported in one record whose
     * source is the Rill class that logged, not the logging facade.
     */
    @Test
    void aReusedNonSharableHandlerIsReportedOncePerChannel() throws Exception {
        ChannelHandler notSharable = new ChannelHandler() { };
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    records.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger root = Logger.getLogger("");
        root.addHandler(capture);
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        channel.pipeline().addLast(notSharable);
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().getNow();
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        Socket[] clients = new Socket[3];
        try {
            for (int i = 0; i < clients.length; i++) {
                clients[i] = new Socket("127.0.0.1", port);
                clients[i].setSoTimeout(10_000);
            }
            // The first keeps the handler; the other two are closed by the server.
            for (int i = 1; i < clients.length; i++) {
                assertEquals(-1, clients[i].getInputStream().read());
            }
        } finally {
            root.removeHandler(capture);
            for (Socket client : clients) {
                if (client != null) {
                    client.close();
                }
            }
            server.close().sync();
        }
        assertEquals(2, records.size(), () -> records.stream().map(LogRecord::getMessage).toList().toString());
        for (LogRecord record : records) {
            assertTrue(record.getMessage().startsWith("initChannel() of "), record.getMessage());
            assertTrue(record.getThrown().getMessage().contains("is not a @Sharable handler"));
            assertEquals(ChannelInitializer.class.getName(), record.getSourceClassName());
        }
    }
}
