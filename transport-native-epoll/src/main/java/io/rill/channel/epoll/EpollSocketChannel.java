package io.rill.channel.epoll;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;

import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelException;
import io.rill.channel.ChannelOutboundBuffer;
import io.rill.channel.EventLoop;
import io.rill.channel.FileRegion;
import io.rill.channel.internal.HalfClosure;
import io.rill.channel.internal.StreamReadLoop;
import io.rill.channel.socket.ServerSocketChannel;
import io.rill.channel.socket.SocketChannel;
import io.rill.util.concurrent.Future;

/**
 * A stream connection over a native socket, TCP or Unix-domain (see
 * {@link EpollDomainSocketChannel}), behaving like {@code NioSocketChannel}: one read burst
 * per readiness ({@link StreamReadLoop}), straight into direct buffers;
 * gathering {@code sendmsg} of the flushed buffers; half closure with {@code ALLOW_HALF_CLOSURE}.
 *
 * <p>Linux specifics: end of stream is also signalled by {@code EPOLLRDHUP}; a reset or error
 * ({@code EPOLLERR}/{@code EPOLLHUP}) on a socket whose input is already shut down closes the
 * channel at once (docs/security-cases.md, case R-01: it must never be left open and ready). In
 * edge mode a burst cut short re-reads by itself (see {@link AbstractEpollChannel}).
 */
public class EpollSocketChannel extends AbstractEpollChannel implements SocketChannel {

    private final EpollSocketChannelConfig config;
    private final DirectIo io;
    /** Created by the first file region written: most connections never send one. Loop-confined. */
    private FileRegionWriter fileWriter;
    private final HalfClosure halfClosure;
    private final StreamReadLoop reads;
    /** Where the current or last connect went, for error messages. Loop-confined. */
    private SocketAddress requestedRemote;
    private volatile boolean connected;
    /** Cached local address; an accepted TCP channel asks the kernel on first use, and at close at the latest. */
    private volatile SocketAddress local;
    /** Cached remote address; an accepted TCP channel builds it on first use from {@link #acceptedPeer}. */
    private volatile SocketAddress remote;
    /**
     * An accepted IPv4 channel's peer as accept reported it ({@link LinuxSocket#packIpv4}), else -1.
     * Kept instead of an InetSocketAddress: most servers never ask, and the objects cost ~100 B per
     * idle connection; asking the kernel later would fail once the peer has reset the connection.
     */
    private final long acceptedPeer;
    /** Epoll said the peer shut its output (EPOLLRDHUP): read until end of stream, a short read is not the end. */
    private boolean readHangUp;

    /**
     * A new, unconnected TCP channel on {@code loop}.
     *
     * @param loop the event loop that runs the channel's I/O, for its whole life
     */
    public EpollSocketChannel(EventLoop loop) {
        this(null, loop, newSocket(false), false);
    }

    /** A new channel ({@code connected} false) or an accepted one whose addresses are read now. */
    EpollSocketChannel(Channel parent, EventLoop loop, LinuxSocket socket, boolean connected) {
        this(parent, loop, socket, connected, -1);
        if (connected) {
            this.local = socket.localAddress();
            this.remote = socket.remoteAddress();
        }
    }

    /** An accepted TCP channel; {@code peer} is what accept reported (see Native.accept), read now. */
    EpollSocketChannel(Channel parent, EventLoop loop, LinuxSocket socket, byte[] peer) {
        this(parent, loop, socket, true, LinuxSocket.packIpv4(peer, peer[22]));
        if (acceptedPeer < 0) {
            this.remote = peer[22] > 0 ? LinuxSocket.decode(peer, peer[22]) : socket.remoteAddress();
        }
    }

    private EpollSocketChannel(Channel parent, EventLoop loop, LinuxSocket socket, boolean connected, long acceptedPeer) {
        super(parent, loop, socket);
        this.acceptedPeer = acceptedPeer;
        this.io = new DirectIo(socket);
        this.config = new EpollSocketChannelConfig(this, new LinuxOptions(socket, this));
        this.halfClosure = new HalfClosure(this, config, new HalfClosure.Socket() {
            @Override
            public void shutdown(boolean input, boolean output) throws IOException {
                socket.shutdown(input, output);
            }

            @Override
            public void stopReading() {
                setReadPending(false);
                removeInterest(READ_OPS);
            }

            @Override
            public ChannelOutboundBuffer outboundBuffer() {
                return EpollSocketChannel.this.outboundBuffer();
            }
        });
        this.reads = new StreamReadLoop(this, halfClosure);
        this.connected = connected;
        if (!socket.isUnix()) {
            try {
                config.setTcpNoDelay(true);
            } catch (ChannelException e) {
                // Not fatal: the connection works, only with Nagle's delay. Visible through getOption.
            }
        }
    }

    static LinuxSocket newSocket(boolean unix) {
        Epoll.ensureAvailability();
        try {
            return unix ? LinuxSocket.newDomain() : LinuxSocket.newStream();
        } catch (IOException e) {
            throw new ChannelException("cannot open a " + (unix ? "Unix-domain " : "") + "socket", e);
        }
    }

    @Override
    public EpollSocketChannelConfig config() {
        return config;
    }

    @Override
    public ServerSocketChannel parent() {
        return (ServerSocketChannel) super.parent();
    }

    @Override
    public boolean isActive() {
        return connected && socket.isOpen();
    }

    @Override
    public boolean isInputShutdown() {
        return halfClosure.isInputShutdown();
    }

    @Override
    public boolean isOutputShutdown() {
        return halfClosure.isOutputShutdown();
    }

    /**
     * The kernel's TCP_INFO for this connection, read now; none for a Unix-domain socket.
     *
     * @return the snapshot; any thread may call it
     * @throws UnsupportedOperationException on a Unix-domain socket
     * @throws io.rill.channel.ChannelException if the kernel refuses, for example on a closed socket
     */
    public TcpInfo tcpInfo() {
        if (socket.isUnix()) {
            throw new UnsupportedOperationException("a Unix-domain socket has no TCP_INFO");
        }
        try {
            return TcpInfo.read(socket);
        } catch (IOException e) {
            throw new ChannelException("cannot read TCP_INFO of " + this, e);
        }
    }

    @Override
    protected SocketAddress localAddress0() {
        SocketAddress address = local;
        if (address == null) {
            address = socket.localAddress();
            if (address != null && connected) {
                local = address; // a connected socket's local address no longer changes
            }
        }
        return address;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        SocketAddress address = remote;
        if (address == null && acceptedPeer >= 0) {
            address = LinuxSocket.unpackIpv4(acceptedPeer);
            remote = address; // two racing callers build equal objects; either is fine
        }
        return address;
    }

    // ---------------------------------------------------------------- connect, bind, close

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        socket.bind(localAddress);
        local = socket.localAddress();
    }

    @Override
    protected boolean doConnect(SocketAddress remoteAddress, SocketAddress localAddress) throws Exception {
        requestedRemote = remoteAddress;
        try {
            if (localAddress != null) {
                doBind(localAddress);
            }
            if (socket.connect(remoteAddress)) {
                markConnected();
                return true;
            }
            addInterest(EpollIoOps.EPOLLOUT);
            return false;
        } catch (Exception e) {
            // A socket whose connect failed cannot try again: close it, after the promise learns why.
            eventLoop().execute(() -> close(voidPromise()));
            throw e;
        }
    }

    private void finishConnect() {
        removeInterest(EpollIoOps.EPOLLOUT);
        try {
            socket.finishConnect(requestedRemote);
        } catch (IOException e) {
            connectFinished(e);
            close(voidPromise());
            return;
        }
        markConnected();
        connectFinished(null);
    }

    private void markConnected() {
        local = socket.localAddress();
        remote = socket.remoteAddress();
        connected = true;
    }

    /** TCP cannot un-connect: disconnect closes, through the ordinary close path. */
    @Override
    protected void doDisconnect() throws Exception {
        eventLoop().execute(() -> close(voidPromise()));
    }

    @Override
    protected void doClose() throws Exception {
        if (connected && local == null) {
            localAddress0(); // the descriptor is about to go; localAddress() stays valid after close
        }
        try {
            super.doClose();
        } finally {
            if (fileWriter != null) {
                fileWriter.close();
            }
        }
    }

    // ---------------------------------------------------------------- readiness and reading

    @Override
    protected void ioReady(EpollIoOps ready) {
        if (isConnectPending()) {
            if (ready.isWritable() || ready.isErrorOrHangUp()) {
                finishConnect();
            }
            if (!isActive()) {
                return;
            }
        }
        if (ready.isWritable() && isOpen() && hasInterest(EpollIoOps.EPOLLOUT)) {
            removeInterest(EpollIoOps.EPOLLOUT);
            resumeWrites();
        }
        readHangUp |= ready.isReadHangUp();
        if ((ready.isReadable() || ready.isReadHangUp()) && isOpen() && hasInterest(EpollIoOps.EPOLLIN)) {
            readNow();
        }
        if (ready.isErrorOrHangUp() && isOpen() && halfClosure.isInputShutdown()) {
            // Reset (or both directions ended) after our input was shut: nothing can come any more.
            close(voidPromise());
        }
    }

    @Override
    protected void doBeginRead() {
        if (halfClosure.isInputShutdown()) {
            return; // nothing will ever arrive
        }
        super.doBeginRead();
    }

    @Override
    int warmUp() {
        return super.warmUp() + reads.warmUp() + (halfClosure.isInputShutdown() ? 1 : 0)
                + config.getWriteBufferWaterMark().low();
    }

    @Override
    protected void readNow() {
        if (halfClosure.isInputShutdown()) {
            removeInterest(READ_OPS);
            return;
        }
        readBurstStarted();
        StreamReadLoop.Outcome outcome = reads.read(io);
        if (outcome == StreamReadLoop.Outcome.END_OF_STREAM) {
            halfClosure.inputEnded();
        }
        // A short read means drained, unless the peer's FIN is known to be waiting behind the data.
        readBurstEnded(outcome != StreamReadLoop.Outcome.LIMITED
                && (outcome != StreamReadLoop.Outcome.SHORT_READ || !readHangUp));
    }

    /** The peer sent end of stream. */
    final void inputEnded() {
        halfClosure.inputEnded();
    }

    // ---------------------------------------------------------------- writing

    @Override
    protected Object filterOutboundMessage(Object msg) throws Exception {
        return halfClosure.filterOutboundMessage(msg);
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        if (halfClosure.failWritesIfOutputShutdown(in)) {
            return;
        }
        for (int spin = config.getWriteSpinCount(); spin > 0 && !in.isEmpty(); spin--) {
            Object msg = in.current();
            long written;
            if (msg instanceof ByteBuf single && in.size() == 1) {
                // The request/response common case: one send(2) from the buffer's memory, no iovec.
                if (!single.isReadable()) {
                    in.remove();
                    continue;
                }
                written = single.getBytes(single.readerIndex(), io, single.readableBytes());
            } else if (msg instanceof FileRegion region) {
                if (fileWriter == null) {
                    fileWriter = new FileRegionWriter(socket, io);
                }
                if (!fileWriter.write(in, region)) {
                    addInterest(EpollIoOps.EPOLLOUT);
                    return;
                }
                continue;
            } else if (msg instanceof ByteBuf) {
                written = writeGathering(in);
                if (written < 0) {
                    continue; // only empty buffers: removed
                }
            } else {
                if (!writeMessage(in, msg)) {
                    addInterest(EpollIoOps.EPOLLOUT);
                    return;
                }
                continue;
            }
            if (written == 0) {
                addInterest(EpollIoOps.EPOLLOUT); // the socket's send buffer is full
                return;
            }
            in.removeBytes(written);
        }
        if (!in.isEmpty()) {
            eventLoop().execute(this::resumeWrites); // still writable, but other channels come first
        }
    }

    /**
     * Writes a message that is neither a ByteBuf nor a FileRegion, removing it from {@code in} when
     * done; false if the socket is full. Only a subclass that accepts such messages gets any.
     */
    boolean writeMessage(ChannelOutboundBuffer in, Object msg) throws IOException {
        in.remove(new UnsupportedOperationException("cannot write a " + msg.getClass().getName()));
        return true;
    }

    /** One sendmsg of the leading flushed buffers; bytes written, 0 if full, -1 if there were only empty buffers. */
    private long writeGathering(ChannelOutboundBuffer in) throws IOException {
        ByteBuffer[] views = in.nioBuffers(DirectIo.MAX_GATHER, Integer.MAX_VALUE);
        int count = in.nioBufferCount();
        if (count == 0) {
            in.remove();
            return -1;
        }
        return io.write(views, 0, count);
    }

    @Override
    protected int messageSize(Object msg) {
        return HalfClosure.messageSize(msg);
    }

    // ---------------------------------------------------------------- half closure

    @Override
    public Future<Void> shutdownInput() {
        return halfClosure.shutdownInput();
    }

    @Override
    public Future<Void> shutdownOutput() {
        return halfClosure.shutdownOutput();
    }

    @Override
    public Future<Void> shutdown() {
        return halfClosure.shutdown();
    }
}
