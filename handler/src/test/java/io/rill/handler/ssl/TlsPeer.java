package io.rill.handler.ssl;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * One side of a TLS conversation in an {@link EmbeddedChannel}: the SslHandler under test and,
 * after it, a recorder of what came through (plaintext, events, exceptions). {@link #exchange}
 * moves ciphertext between two peers until both are quiet, so a handshake runs without sockets.
 */
final class TlsPeer implements ChannelHandler {

    final EmbeddedChannel channel;
    private SslHandler ssl;
    final ByteArrayOutputStream received = new ByteArrayOutputStream();
    final List<Object> events = new ArrayList<>();
    final List<Throwable> exceptions = new ArrayList<>();
    /** How many times channelWritabilityChanged reached this recorder. */
    int writabilityChanges;
    /** The ciphertext messages this peer wrote, as seen by {@link #exchange} (their sizes). */
    final List<Integer> writtenRecordSizes = new ArrayList<>();

    /** @param first the SslHandler under test, or a handler that installs one (SniHandler) */
    TlsPeer(ChannelHandler first) {
        if (first instanceof SslHandler ssl) {
            this.ssl = ssl;
        }
        this.channel = new EmbeddedChannel(first, this);
    }

    /** The SslHandler (an SniHandler replaces itself with one); remembered after the channel closes. */
    SslHandler handler() {
        SslHandler now = channel.pipeline().get(SslHandler.class);
        if (now != null) {
            ssl = now;
        }
        return ssl;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf buf = (ByteBuf) msg;
        try {
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            received.writeBytes(bytes);
        } finally {
            buf.release();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        handler();
        events.add(evt);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        writabilityChanges++;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        exceptions.add(cause);
    }

    String receivedText() {
        return received.toString(StandardCharsets.UTF_8);
    }

    void write(String text) {
        channel.writeAndFlush(Unpooled.copiedBuffer(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** Feeds raw bytes as one read. */
    void feed(byte[] bytes) {
        feed(Unpooled.copiedBuffer(bytes));
    }

    void feed(ByteBuf buf) {
        if (!channel.isOpen()) {
            buf.release();
            return;
        }
        channel.pipeline().fireChannelRead(buf);
        channel.pipeline().fireChannelReadComplete();
        channel.runPendingTasks();
    }

    /** All the ciphertext this peer has written since the last call, as one array. */
    byte[] drainOutbound() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object m; (m = channel.readOutbound()) != null; ) {
            ByteBuf buf = (ByteBuf) m;
            writtenRecordSizes.add(buf.readableBytes());
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            buf.release();
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    /** Moves bytes both ways until neither side has anything more to say. */
    static void exchange(TlsPeer a, TlsPeer b) {
        for (int rounds = 0; rounds < 100; rounds++) {
            byte[] ab = a.drainOutbound();
            byte[] ba = b.drainOutbound();
            if (ab.length == 0 && ba.length == 0) {
                return;
            }
            if (ab.length > 0) {
                b.feed(ab);
            }
            if (ba.length > 0) {
                a.feed(ba);
            }
        }
        throw new AssertionError("the peers kept talking for 100 rounds");
    }

    /** Closes the channel and drops anything left queued in it. */
    void dispose() {
        channel.finishAndReleaseAll();
        for (Object m; (m = channel.readOutbound()) != null; ) {
            ReferenceCountUtil.release(m);
        }
    }

    boolean handshakeSucceeded() {
        SslHandler handler = handler();
        return handler != null && handler.handshakeFuture().isDone() && handler.handshakeFuture().isSuccess();
    }
}
