package io.rill.channel.epoll;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;
import java.util.function.Predicate;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelClosedException;
import io.rill.channel.ChannelException;
import io.rill.channel.ChannelOutboundBuffer;
import io.rill.channel.ChannelPipeline;
import io.rill.channel.EventLoop;
import io.rill.channel.RecvByteBufAllocator;
import io.rill.channel.internal.DirectOutbound;
import io.rill.channel.socket.DatagramChannel;
import io.rill.channel.socket.DatagramChannelConfig;
import io.rill.channel.socket.DatagramPacket;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * UDP over a native socket, in batches: one {@code recvmmsg(2)} receives up to 64 datagrams
 * (bounded by {@code MAX_MESSAGES_PER_READ}) into buffers from the config's allocator, one
 * {@code sendmmsg(2)} sends up to 64 flushed ones. Behaves like {@code NioDatagramChannel}:
 * {@link DatagramPacket}s in and out, plain buffers once connected, an undeliverable datagram
 * fails alone, a read error is reported but does not close the channel.
 *
 * <p>Batches are described to C in two native arrays this channel reuses (layouts in
 * {@code rill_datagram.c}): {@code batch} (receive: buffer address and capacity, 16 bytes each;
 * send: address, length and recipient, 48 bytes each) and {@code results} (length and sender, 32
 * bytes each). Buffer addresses are taken through the buffers' own channel I/O methods, so a
 * pooled buffer yields its address without a new {@code ByteBuffer}.
 *
 * <p>Multicast: {@code IP_MULTICAST_TTL} and {@code IP_MULTICAST_LOOP_DISABLED} are supported,
 * {@code IP_MULTICAST_IF} is not (reported unsupported); join and leave by interface index.
 */
public class EpollDatagramChannel extends AbstractEpollChannel implements DatagramChannel {

    private static final int BATCH = 64;
    private static final int SEND_ENTRY = 48;
    private static final int RECV_ENTRY = 16;
    private static final int RESULT_ENTRY = 32;

    private final DatagramChannelConfig config;
    private final DirectIo io;
    private final ByteBuffer batch = ByteBuffer.allocateDirect(BATCH * SEND_ENTRY).order(ByteOrder.nativeOrder());
    private final ByteBuffer results = ByteBuffer.allocateDirect(BATCH * RESULT_ENTRY).order(ByteOrder.nativeOrder());
    private final long batchAddress;
    private final long resultsAddress;
    private final ByteBuf[] receiving = new ByteBuf[BATCH];
    private final AddressCapture capture = new AddressCapture();
    private final BatchFiller filler = new BatchFiller();
    private RecvByteBufAllocator.Handle recvHandle;
    private RecvByteBufAllocator recvHandleSource;
    /** The last sender seen and its raw form: a steady peer costs no new address object. Loop-confined. */
    private InetSocketAddress lastSender;
    private final byte[] lastSenderRaw = new byte[28];
    private volatile SocketAddress local;
    private volatile SocketAddress remote;

    /**
     * A dual-stack (IPv6 where the kernel has it) UDP channel.
     *
     * @param loop the event loop that runs the channel's I/O, for its whole life
     */
    public EpollDatagramChannel(EventLoop loop) {
        this(loop, LinuxSocket.IPV6);
    }

    /**
     * An IPv6 (dual-stack) or, with {@code ipv6} false, a pure IPv4 UDP channel.
     *
     * @param loop the event loop that runs the channel's I/O, for its whole life
     * @param ipv6 false for an {@code AF_INET} socket
     */
    public EpollDatagramChannel(EventLoop loop, boolean ipv6) {
        super(null, loop, newSocket(ipv6));
        this.config = new DatagramChannelConfig(this, new LinuxOptions(socket, this));
        this.io = new DirectIo(socket);
        this.batchAddress = Native.bufferAddress(batch);
        this.resultsAddress = Native.bufferAddress(results);
    }

    private static LinuxSocket newSocket(boolean ipv6) {
        Epoll.ensureAvailability();
        try {
            return LinuxSocket.newDatagram(ipv6);
        } catch (IOException e) {
            throw new ChannelException("cannot open a datagram socket", e);
        }
    }

    @Override
    public DatagramChannelConfig config() {
        return config;
    }

    @Override
    public boolean isActive() {
        return socket.isOpen() && local != null;
    }

    @Override
    public boolean isConnected() {
        return remote != null;
    }

    /** Bound (active) is not connected for UDP: a bound socket may still connect to a peer. */
    @Override
    protected boolean isAlreadyConnected() {
        return isConnected();
    }

    @Override
    protected SocketAddress localAddress0() {
        return local;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return remote;
    }

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        socket.bind(localAddress);
        local = socket.localAddress();
    }

    /** UDP "connects" at once: it only fixes the peer (and binds an ephemeral port if needed). */
    @Override
    protected boolean doConnect(SocketAddress remoteAddress, SocketAddress localAddress) throws Exception {
        if (localAddress != null) {
            doBind(localAddress);
        }
        socket.connect(remoteAddress);
        local = socket.localAddress();
        remote = socket.remoteAddress();
        return true;
    }

    @Override
    protected void doDisconnect() throws Exception {
        socket.disconnect();
        remote = null;
    }

    // ---------------------------------------------------------------- reading

    @Override
    protected void ioReady(EpollIoOps ready) {
        if (ready.isWritable() && isOpen() && hasInterest(EpollIoOps.EPOLLOUT)) {
            removeInterest(EpollIoOps.EPOLLOUT);
            resumeWrites();
        }
        if (ready.isReadable() && isOpen() && hasInterest(EpollIoOps.EPOLLIN)) {
            readNow();
        }
    }

    @Override
    protected EpollIoOps readOps() {
        return EpollIoOps.EPOLLIN;
    }

    /** Batches of recvmmsg until the socket is empty or MAX_MESSAGES_PER_READ datagrams were read. */
    @Override
    protected void readNow() {
        readBurstStarted();
        ChannelPipeline pipeline = pipeline();
        RecvByteBufAllocator.Handle handle = recvHandle();
        handle.reset(config);
        int left = config.getMaxMessagesPerRead();
        boolean drained = false;
        try {
            while (left > 0 && isOpen()) {
                int wanted = Math.min(left, BATCH);
                int got = receiveBatch(handle, wanted);
                left -= got;
                if (got < wanted) {
                    drained = true; // the kernel had no more
                    break;
                }
                if (!config.isReadingAutomatically()) {
                    break;
                }
            }
            handle.readComplete();
            pipeline.fireChannelReadComplete();
        } catch (Throwable t) {
            drained = true;
            handle.readComplete();
            pipeline.fireChannelReadComplete();
            // An ICMP port-unreachable surfaces here on a connected socket; UDP goes on, so we do not close.
            pipeline.fireExceptionCaught(t);
        } finally {
            readBurstEnded(drained);
        }
    }

    /** One recvmmsg of up to {@code wanted} datagrams, each fired; returns how many arrived. */
    private int receiveBatch(RecvByteBufAllocator.Handle handle, int wanted) throws IOException {
        int r;
        try {
            for (int i = 0; i < wanted; i++) {
                ByteBuf buf = handle.allocate(alloc());
                receiving[i] = buf;
                buf.setBytes(buf.writerIndex(), capture, buf.writableBytes());
                batch.putLong(i * RECV_ENTRY, capture.address).putLong(i * RECV_ENTRY + 8, capture.length);
            }
            r = Native.recvmmsg(socket.fd(), batchAddress, resultsAddress, wanted);
            r = r == -Errors.EAGAIN ? 0 : Errors.check("recvmmsg", r);
            for (int i = 0; i < r; i++) {
                ByteBuf buf = receiving[i];
                receiving[i] = null;
                int length = results.getInt(i * RESULT_ENTRY);
                buf.writerIndex(buf.writerIndex() + length);
                handle.lastBytesRead(length);
                handle.incMessagesRead(1);
                pipeline().fireChannelRead(new DatagramPacket(buf, local, sender(i * RESULT_ENTRY)));
            }
        } finally {
            for (int i = 0; i < wanted; i++) {
                if (receiving[i] != null) {
                    receiving[i].release();
                    receiving[i] = null;
                }
            }
        }
        return r;
    }

    /** The sender in the results entry at {@code at}; the previous object again if it is the same peer. */
    private InetSocketAddress sender(int at) throws UnknownHostException {
        byte[] raw = lastSenderRaw;
        boolean same = lastSender != null;
        for (int i = 0; i < raw.length; i++) {
            byte b = results.get(at + 4 + i);
            same &= raw[i] == b;
            raw[i] = b;
        }
        if (same) {
            return lastSender;
        }
        int len = results.getInt(at + 4);
        byte[] ip = new byte[len];
        results.get(at + 8, ip);
        int port = results.getInt(at + 24);
        int scope = results.getInt(at + 28);
        InetAddress address = len == 16 && scope != 0 ? Inet6Address.getByAddress(null, ip, scope)
                : InetAddress.getByAddress(ip);
        lastSender = new InetSocketAddress(address, port);
        return lastSender;
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

    /** Packets to resolved IP addresses and (connected) plain buffers, each one direct buffer: one iovec per datagram. */
    @Override
    protected Object filterOutboundMessage(Object msg) {
        if (msg instanceof DatagramPacket packet
                && (!(packet.recipient() instanceof InetSocketAddress recipient) || recipient.isUnresolved())) {
            throw new UnsupportedOperationException("a datagram goes to a resolved InetSocketAddress, not "
                    + packet.recipient());
        }
        return DirectOutbound.datagram(msg, isConnected(), alloc(), "EpollDatagramChannel");
    }

    @Override
    protected int messageSize(Object msg) {
        return msg instanceof DatagramPacket packet ? packet.content().readableBytes() : super.messageSize(msg);
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        for (int spin = config.getWriteSpinCount(); spin > 0 && !in.isEmpty(); spin--) {
            filler.count = 0;
            in.forEachFlushedMessage(filler);
            if (filler.count == 0) {
                in.current(); // only cancelled writes were flushed: this drops them
                return;
            }
            int r = Native.sendmmsg(socket.fd(), socket.isIpv6(), batchAddress, filler.count);
            if (r == -Errors.EAGAIN) {
                addInterest(EpollIoOps.EPOLLOUT); // the socket's send buffer is full
                return;
            }
            if (r < 0) {
                // The first datagram was undeliverable (unreachable, too large): it fails alone.
                in.remove(Errors.newException("sendmmsg", -r));
                continue;
            }
            for (int i = 0; i < r; i++) {
                in.remove(); // a datagram goes whole or not at all
            }
        }
        if (!in.isEmpty()) {
            eventLoop().execute(this::resumeWrites);
        }
    }

    /** Describes flushed datagrams in {@code batch} for sendmmsg, up to {@link #BATCH}. */
    private final class BatchFiller implements Predicate<Object> {
        int count;

        @Override
        public boolean test(Object msg) {
            ByteBuf content = msg instanceof DatagramPacket packet ? packet.content() : (ByteBuf) msg;
            InetSocketAddress recipient = msg instanceof DatagramPacket packet
                    ? (InetSocketAddress) packet.recipient() : null;
            int at = count * SEND_ENTRY;
            try {
                content.getBytes(content.readerIndex(), capture, content.readableBytes());
            } catch (IOException e) {
                throw new IllegalStateException(e); // the capture does no I/O
            }
            batch.putLong(at, capture.address).putLong(at + 8, capture.length);
            if (recipient == null) {
                batch.putInt(at + 16, 0);
            } else {
                byte[] ip = recipient.getAddress().getAddress();
                batch.putInt(at + 16, ip.length).putInt(at + 20, recipient.getPort())
                        .putInt(at + 24, recipient.getAddress() instanceof Inet6Address v6 ? v6.getScopeId() : 0)
                        .put(at + 32, ip);
            }
            return ++count < BATCH;
        }
    }

    /**
     * Stands in for a channel so a buffer reveals where its bytes are: the buffer hands over a view
     * of its memory, this notes the view's address and length and moves nothing.
     */
    private final class AddressCapture implements ScatteringByteChannel, GatheringByteChannel {
        long address;
        long length;

        private int note(ByteBuffer view) {
            address = io.addressOf(view) + view.position();
            length = view.remaining();
            return 0;
        }

        @Override
        public int read(ByteBuffer dst) {
            return note(dst);
        }

        @Override
        public int write(ByteBuffer src) {
            note(src);
            return (int) length;
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int count) {
            throw new UnsupportedOperationException("one buffer per datagram");
        }

        @Override
        public long read(ByteBuffer[] dsts) {
            throw new UnsupportedOperationException("one buffer per datagram");
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int count) {
            throw new UnsupportedOperationException("one buffer per datagram");
        }

        @Override
        public long write(ByteBuffer[] srcs) {
            throw new UnsupportedOperationException("one buffer per datagram");
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    // ---------------------------------------------------------------- multicast

    @Override
    public Future<Void> joinGroup(InetAddress group, NetworkInterface networkInterface) {
        return membership(true, group, networkInterface);
    }

    @Override
    public Future<Void> leaveGroup(InetAddress group, NetworkInterface networkInterface) {
        return membership(false, group, networkInterface);
    }

    /** Leaving a group never joined succeeds, as in NIO. */
    private Future<Void> membership(boolean join, InetAddress group, NetworkInterface nif) {
        if (group == null) {
            throw new NullPointerException("group");
        }
        Promise<Void> promise = newPromise();
        Runnable task = () -> {
            if (!isOpen()) {
                promise.tryFailure(new ChannelClosedException(this + " is closed"));
                return;
            }
            try {
                socket.membership(join, group, nif);
                promise.trySuccess(null);
            } catch (NativeIoException e) {
                if (!join && e.errno() == Errors.EADDRNOTAVAIL) {
                    promise.trySuccess(null);
                } else {
                    promise.tryFailure(e);
                }
            } catch (IOException e) {
                promise.tryFailure(e);
            }
        };
        if (eventLoop().inEventLoop()) {
            task.run();
        } else {
            eventLoop().execute(task);
        }
        return promise;
    }
}
