package io.rill.channel.nio;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.MembershipKey;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelClosedException;
import io.rill.channel.ChannelException;
import io.rill.channel.ChannelOutboundBuffer;
import io.rill.channel.ChannelPipeline;
import io.rill.channel.EventLoop;
import io.rill.channel.RecvByteBufAllocator;
import io.rill.channel.internal.DirectOutbound;
import io.rill.channel.internal.SocketOptionAccess;
import io.rill.channel.socket.DatagramChannelConfig;
import io.rill.channel.socket.DatagramPacket;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * UDP over a JDK {@link DatagramChannel}. Each read readiness receives up to
 * {@code MAX_MESSAGES_PER_READ} datagrams, each fired as a {@link DatagramPacket} (sender,
 * our address, payload); writes take {@link DatagramPacket}s, or plain buffers once connected.
 * A datagram the socket cannot take now (send returns 0) waits for write readiness.
 *
 * <p>The default constructor opens the platform's default family (dual-stack IPv6 on Linux,
 * which also joins IPv4 groups); pass {@link java.net.StandardProtocolFamily#INET} for a pure
 * IPv4 socket.
 */
public class NioDatagramChannel extends AbstractNioChannel implements io.rill.channel.socket.DatagramChannel {

    private final DatagramChannel socket;
    private final DatagramChannelConfig config;
    /** Loop-confined. */
    private RecvByteBufAllocator.Handle recvHandle;
    private RecvByteBufAllocator recvHandleSource;
    /** Joined groups by (group, interface). Loop-confined. */
    private final Map<Membership, MembershipKey> memberships = new HashMap<>();

    /**
     * A UDP channel of the system's default protocol family on {@code loop}.
     *
     * @param loop a loop running a {@link NioIoHandler}
     */
    public NioDatagramChannel(EventLoop loop) {
        this(loop, open(null));
    }

    /**
     * A UDP channel of {@code family} on {@code loop}.
     *
     * @param loop a loop running a {@link NioIoHandler}
     * @param family {@code INET} or {@code INET6}
     */
    public NioDatagramChannel(EventLoop loop, ProtocolFamily family) {
        this(loop, open(family));
    }

    /**
     * Wraps an open, unbound JDK datagram channel.
     *
     * @param loop a loop running a {@link NioIoHandler}
     * @param socket the JDK channel; the Rill channel owns it from now on
     */
    public NioDatagramChannel(EventLoop loop, DatagramChannel socket) {
        super(null, loop, socket);
        this.socket = socket;
        this.config = new DatagramChannelConfig(this, SocketOptionAccess.of(socket, this));
    }

    private static DatagramChannel open(ProtocolFamily family) {
        try {
            return family == null ? DatagramChannel.open() : DatagramChannel.open(family);
        } catch (IOException e) {
            throw new ChannelException("cannot open a datagram socket" + (family == null ? "" : " of family " + family), e);
        }
    }

    @Override
    public DatagramChannelConfig config() {
        return config;
    }

    @Override
    public boolean isActive() {
        return socket.isOpen() && socket.socket().isBound();
    }

    @Override
    public boolean isConnected() {
        return socket.isConnected();
    }

    /** Bound (active) is not connected for UDP: a bound socket may still connect to a peer. */
    @Override
    protected boolean isAlreadyConnected() {
        return socket.isConnected();
    }

    @Override
    protected SocketAddress localAddress0() {
        try {
            return socket.getLocalAddress();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    protected SocketAddress remoteAddress0() {
        try {
            return socket.getRemoteAddress();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        socket.bind(localAddress);
    }

    /** UDP "connects" at once: it only fixes the peer. Binds to an ephemeral port first if needed. */
    @Override
    protected boolean doConnect(SocketAddress remoteAddress, SocketAddress localAddress) throws Exception {
        if (localAddress != null) {
            socket.bind(localAddress);
        }
        socket.connect(remoteAddress);
        return true;
    }

    @Override
    protected void doDisconnect() throws Exception {
        socket.disconnect();
    }

    // ---------------------------------------------------------------- reading

    @Override
    protected void ioReady(NioIoOps ready) {
        if (ready.isWritable() && isOpen()) {
            removeInterest(NioIoOps.WRITE);
            resumeWrites();
        }
        if (ready.isReadable() && isOpen()) {
            read0();
        }
    }

    /** Not the Handle's byte-count loop: a datagram smaller than its buffer says nothing about the next one. */
    private void read0() {
        setReadPending(false);
        ChannelPipeline pipeline = pipeline();
        RecvByteBufAllocator.Handle handle = recvHandle();
        handle.reset(config);
        SocketAddress local = localAddress0();
        int max = config.getMaxMessagesPerRead();
        ByteBuf buf = null;
        try {
            for (int i = 0; i < max; i++) {
                buf = handle.allocate(alloc());
                ByteBuffer target = buf.nioBuffer(buf.writerIndex(), buf.writableBytes());
                int start = target.position();
                SocketAddress sender = socket.receive(target);
                if (sender == null) {
                    buf.release();
                    buf = null;
                    break;
                }
                int bytes = target.position() - start;
                buf.writerIndex(buf.writerIndex() + bytes);
                handle.lastBytesRead(bytes);
                handle.incMessagesRead(1);
                DatagramPacket packet = new DatagramPacket(buf, local, sender);
                buf = null;
                pipeline.fireChannelRead(packet);
                if (!config.isReadingAutomatically() || !isOpen()) {
                    break;
                }
            }
            handle.readComplete();
            pipeline.fireChannelReadComplete();
        } catch (Throwable t) {
            if (buf != null) {
                buf.release();
            }
            handle.readComplete();
            pipeline.fireChannelReadComplete();
            // An ICMP port-unreachable surfaces here on a connected socket; UDP goes on, so we do not close.
            pipeline.fireExceptionCaught(t);
        } finally {
            if (isOpen()) {
                dropReadInterestUnlessWanted();
            }
        }
    }

    private RecvByteBufAllocator.Handle recvHandle() {
        RecvByteBufAllocator source = config.getRecvByteBufAllocator();
        if (recvHandle == null || recvHandleSource != source) {
            recvHandle = source.newHandle();
            recvHandleSource = source;
        }
        return recvHandle;
    }

    // ---------------------------------------------------------------- writing

    @Override
    protected Object filterOutboundMessage(Object msg) {
        return DirectOutbound.datagram(msg, socket.isConnected(), alloc(), "NioDatagramChannel");
    }

    @Override
    protected int messageSize(Object msg) {
        return msg instanceof DatagramPacket packet ? packet.content().readableBytes() : super.messageSize(msg);
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        for (int spin = config.getWriteSpinCount(); spin > 0; spin--) {
            Object msg = in.current();
            if (msg == null) {
                return;
            }
            ByteBuf content;
            SocketAddress recipient;
            if (msg instanceof DatagramPacket packet) {
                content = packet.content();
                recipient = packet.recipient();
            } else {
                content = (ByteBuf) msg;
                recipient = null;
            }
            ByteBuffer data = content.nioBuffer(content.readerIndex(), content.readableBytes());
            int sent;
            try {
                sent = recipient == null ? socket.write(data) : socket.send(data, recipient);
            } catch (IOException e) {
                // One undeliverable datagram (unreachable port or network) fails alone; the socket is fine.
                in.remove(e);
                continue;
            }
            if (sent == 0 && content.isReadable()) {
                addInterest(NioIoOps.WRITE); // the socket's send buffer is full
                return;
            }
            in.remove(); // a datagram goes whole or not at all
        }
        if (!in.isEmpty()) {
            eventLoop().execute(this::resumeWrites);
        }
    }

    // ---------------------------------------------------------------- multicast

    @Override
    public Future<Void> joinGroup(InetAddress group, NetworkInterface networkInterface) {
        Membership m = new Membership(group, networkInterface);
        return onLoop(promise -> {
            try {
                if (!memberships.containsKey(m)) {
                    memberships.put(m, socket.join(group, networkInterface));
                }
                promise.trySuccess(null);
            } catch (IOException | RuntimeException e) {
                promise.tryFailure(e);
            }
        });
    }

    @Override
    public Future<Void> leaveGroup(InetAddress group, NetworkInterface networkInterface) {
        Membership m = new Membership(group, networkInterface);
        return onLoop(promise -> {
            MembershipKey key = memberships.remove(m);
            if (key != null) {
                key.drop();
            }
            promise.trySuccess(null);
        });
    }

    private Future<Void> onLoop(Consumer<Promise<Void>> op) {
        Promise<Void> promise = newPromise();
        Runnable task = () -> {
            if (!isOpen()) {
                promise.tryFailure(new ChannelClosedException(this + " is closed"));
            } else {
                op.accept(promise);
            }
        };
        if (eventLoop().inEventLoop()) {
            task.run();
        } else {
            eventLoop().execute(task);
        }
        return promise;
    }

    private record Membership(InetAddress group, NetworkInterface networkInterface) {
        Membership {
            if (group == null || networkInterface == null) {
                throw new NullPointerException(group == null ? "group" : "networkInterface");
            }
        }
    }
}
