package io.rill.microbench.ssl;

import javax.net.ssl.SSLException;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.ssl.SslContext;
import io.rill.handler.ssl.SslContextBuilder;
import io.rill.handler.ssl.SslHandler;
import io.rill.handler.ssl.SslProvider;
import io.rill.handler.ssl.util.SelfSignedCertificate;

/**
 * A TLS client and server in two {@link EmbeddedChannel}s, ciphertext moved between them by
 * hand: the cost of TLS itself with no socket. Plaintext reaching either end is counted and
 * released.
 *
 * <p>The OPENSSL provider needs netty-tcnative-boringssl-static on the class path, which
 * rill-handler declares optional: run the jar with it, e.g.
 * {@code java -cp benchmarks.jar:netty-tcnative-classes.jar:netty-tcnative-boringssl-static-linux-x86_64.jar
 * org.openjdk.jmh.Main 'ssl.*'} (the forked JVMs inherit the class path).
 */
final class TlsPair {

    static final SelfSignedCertificate CERT = new SelfSignedCertificate();

    final EmbeddedChannel client;
    final EmbeddedChannel server;
    final SslHandler clientSsl;
    final SslHandler serverSsl;
    /** Plaintext bytes that reached the server's end since the last reset. */
    long serverReceived;

    TlsPair(SslContext serverContext, SslContext clientContext) {
        this(serverContext.newHandler(ByteBufAllocator.DEFAULT),
                clientContext.newHandler(ByteBufAllocator.DEFAULT, "localhost", 443));
    }

    TlsPair(SslHandler serverSsl, SslHandler clientSsl) {
        this.clientSsl = clientSsl;
        this.serverSsl = serverSsl;
        client = new EmbeddedChannel(clientSsl, new Sink(null));
        server = new EmbeddedChannel(serverSsl, new Sink(this));
    }

    static SslContext serverContext(String protocol, SslProvider provider) throws SSLException {
        return SslContextBuilder.forServer(CERT.key(), CERT.certificate()).protocols(protocol).sslProvider(provider)
                .build();
    }

    static SslContext clientContext(String protocol, SslProvider provider) throws SSLException {
        return SslContextBuilder.forClient().trustManager(CERT.certificate()).protocols(protocol).sslProvider(provider)
                .build();
    }

    /** Moves ciphertext both ways until both sides are quiet; returns how many buffers moved. */
    int exchange() {
        int moved = 0;
        for (int n; (n = move(client, server) + move(server, client)) > 0; ) {
            moved += n;
        }
        return moved;
    }

    /** Moves {@code from}'s written ciphertext into {@code to} as one read burst. */
    static int move(EmbeddedChannel from, EmbeddedChannel to) {
        int n = 0;
        for (Object m; (m = from.readOutbound()) != null; n++) {
            to.pipeline().fireChannelRead(m);
        }
        if (n > 0) {
            to.pipeline().fireChannelReadComplete();
        }
        return n;
    }

    boolean handshaken() {
        return clientSsl.handshakeFuture().isSuccess() && serverSsl.handshakeFuture().isSuccess();
    }

    void close() {
        client.finishAndReleaseAll();
        server.finishAndReleaseAll();
        for (Object m; (m = client.readOutbound()) != null; ) {
            ReferenceCountUtil.release(m);
        }
        for (Object m; (m = server.readOutbound()) != null; ) {
            ReferenceCountUtil.release(m);
        }
    }

    private static final class Sink implements ChannelHandler {
        private final TlsPair counter;

        Sink(TlsPair counter) {
            this.counter = counter;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (counter != null && msg instanceof ByteBuf buf) {
                counter.serverReceived += buf.readableBytes();
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        }
    }
}
