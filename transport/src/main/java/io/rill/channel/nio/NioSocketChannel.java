package io.rill.channel.nio;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelException;
import io.rill.channel.ChannelOutboundBuffer;
import io.rill.channel.EventLoop;
import io.rill.channel.FileRegion;
import io.rill.channel.internal.HalfClosure;
import io.rill.channel.internal.SocketOptionAccess;
import io.rill.channel.internal.StreamReadLoop;
import io.rill.channel.socket.ServerSocketChannel;
import io.rill.channel.socket.SocketChannelConfig;
import io.rill.util.concurrent.Future;

/**
 * A stream connection over a JDK {@link SocketChannel}: TCP by default, or a Unix-domain stream
 * socket when opened with {@link java.net.StandardProtocolFamily#UNIX} (see
 * {@link NioDomainSocketChannel}); the two differ only in the options their socket has.
 *
 * <p>Reading: one {@link StreamReadLoop} burst per read readiness. End of stream and the
 * {@code shutdown*} operations follow {@link HalfClosure} (close, or with
 * {@code ALLOW_HALF_CLOSURE} shut input and stop watching it for good). A read error (peer reset)
 * is fired as {@code exceptionCaught} and closes the channel, failing pending writes.
 *
 * <p>Writing: gathering writes of the flushed buffers ({@link FileRegion}s go through
 * {@code FileChannel.transferTo}, i.e. {@code sendfile(2)} on Linux), at most {@code WRITE_SPIN_COUNT} per
 * flush; a write the socket refuses (0 bytes) waits for write readiness, a flush cut short by
 * the spin count continues as a later task so other channels get their turn.
 */
public class NioSocketChannel extends AbstractNioChannel implements io.rill.channel.socket.SocketChannel {

    /** Most buffers one gathering write takes: Linux's IOV_MAX. */
    private static final int MAX_GATHERED_BUFFERS = 1024;

    private final SocketChannel socket;
    private final SocketChannelConfig config;
    private final HalfClosure halfClosure;
    private final StreamReadLoop reads;
    /** Where the current or last connect went, for error messages. Loop-confined. */
    private SocketAddress requestedRemote;
    /** The addresses as they were when close started: the JDK refuses to report them once closed. */
    private volatile SocketAddress localAtClose;
    private volatile SocketAddress remoteAtClose;

    /**
     * A new, unconnected TCP channel on {@code loop}.
     *
     * @param loop a loop running a {@link NioIoHandler}
     */
    public NioSocketChannel(EventLoop loop) {
        this(null, loop, open(null));
    }

    /**
     * A new, unconnected channel of {@code family} ({@code INET}, {@code INET6} or {@code UNIX}) on {@code
     * loop}.
     *
     * @param loop a loop running a {@link NioIoHandler}
     * @param family the protocol family
     */
    public NioSocketChannel(EventLoop loop, ProtocolFamily family) {
        this(null, loop, open(family));
    }

    /**
     * Wraps {@code socket}, accepted by {@code parent} or connected elsewhere.
     *
     * @param parent the server channel that accepted it, or null
     * @param loop a loop running a {@link NioIoHandler}
     * @param socket the JDK channel; the Rill channel owns it from now on
     */
    public NioSocketChannel(Channel parent, EventLoop loop, SocketChannel socket) {
        super(parent, loop, socket);
        this.socket = socket;
        this.config = new SocketChannelConfig(this, SocketOptionAccess.of(socket, this));
        this.halfClosure = new HalfClosure(this, config, new HalfClosure.Socket() {
            @Override
            public void shutdown(boolean input, boolean output) throws IOException {
                if (input) {
                    socket.shutdownInput();
                }
                if (output) {
                    socket.shutdownOutput();
                }
            }

            @Override
            public void stopReading() {
                setReadPending(false);
                removeInterest(NioIoOps.READ);
            }

            @Override
            public ChannelOutboundBuffer outboundBuffer() {
                return NioSocketChannel.this.outboundBuffer();
            }
        });
        this.reads = new StreamReadLoop(this, halfClosure);
        if (socket.supportedOptions().contains(StandardSocketOptions.TCP_NODELAY)) {
            try {
                socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
            } catch (IOException e) {
                // Not fatal: the connection works, only with Nagle's delay. Visible through getOption.
            }
        }
    }

    private static SocketChannel open(ProtocolFamily family) {
        try {
            return family == null ? SocketChannel.open() : SocketChannel.open(family);
        } catch (IOException e) {
            throw new ChannelException("cannot open a socket" + (family == null ? "" : " of family " + family), e);
        }
    }

    @Override
    public SocketChannelConfig config() {
        return config;
    }

    @Override
    public ServerSocketChannel parent() {
        return (ServerSocketChannel) super.parent();
    }

    @Override
    public boolean isActive() {
        return socket.isOpen() && socket.isConnected();
    }

    @Override
    public boolean isInputShutdown() {
        return halfClosure.isInputShutdown();
    }

    @Override
    public boolean isOutputShutdown() {
        return halfClosure.isOutputShutdown();
    }

    @Override
    protected SocketAddress localAddress0() {
        try {
            return socket.getLocalAddress();
        } catch (IOException e) {
            return localAtClose; // closed
        }
    }

    @Override
    protected SocketAddress remoteAddress0() {
        try {
            return socket.getRemoteAddress();
        } catch (IOException e) {
            return remoteAtClose;
        }
    }

    /** Keeps the addresses for those who ask after close (a handler logging who left in channelInactive). */
    @Override
    protected void doClose() throws Exception {
        localAtClose = localAddress0();
        remoteAtClose = remoteAddress0();
        super.doClose();
    }

    // ---------------------------------------------------------------- connect, bind, close

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        socket.bind(localAddress);
    }

    @Override
    protected boolean doConnect(SocketAddress remoteAddress, SocketAddress localAddress) throws Exception {
        requestedRemote = remoteAddress;
        try {
            if (localAddress != null) {
                socket.bind(localAddress);
            }
            if (socket.connect(remoteAddress)) {
                return true;
            }
            addInterest(NioIoOps.CONNECT);
            return false;
        } catch (Exception e) {
            // A socket whose connect failed cannot try again: close it, after the promise learns why.
            eventLoop().execute(() -> close(voidPromise()));
            throw annotate(e, remoteAddress);
        }
    }

    private void finishConnect() {
        try {
            if (!socket.finishConnect()) {
                return; // not yet; OP_CONNECT stays
            }
            removeInterest(NioIoOps.CONNECT);
            connectFinished(null);
        } catch (Exception e) {
            removeInterest(NioIoOps.CONNECT);
            connectFinished(annotate(e, requestedRemote));
            close(voidPromise());
        }
    }

    /** The JDK's "Connection refused" does not say to what; ours does. */
    private static Exception annotate(Exception e, SocketAddress remote) {
        if (e instanceof ConnectException && remote != null) {
            ConnectException annotated = new ConnectException(e.getMessage() + ": " + remote);
            annotated.initCause(e);
            return annotated;
        }
        return e;
    }

    /** TCP cannot un-connect: disconnect closes, through the ordinary close path. */
    @Override
    protected void doDisconnect() throws Exception {
        socket.close();
        eventLoop().execute(() -> close(voidPromise()));
    }

    // ---------------------------------------------------------------- readiness and reading

    @Override
    protected void ioReady(NioIoOps ready) {
        if (ready.isConnectable()) {
            finishConnect();
        }
        if (ready.isWritable() && isOpen()) {
            removeInterest(NioIoOps.WRITE);
            resumeWrites();
        }
        if (ready.isReadable() && isOpen()) {
            read0();
        }
    }

    @Override
    protected void doBeginRead() {
        if (halfClosure.isInputShutdown()) {
            return; // nothing will ever arrive
        }
        super.doBeginRead();
    }

    private void read0() {
        if (halfClosure.isInputShutdown()) {
            removeInterest(NioIoOps.READ);
            return;
        }
        setReadPending(false);
        if (reads.read(socket) == StreamReadLoop.Outcome.END_OF_STREAM) {
            halfClosure.inputEnded();
        }
        if (isOpen()) {
            dropReadInterestUnlessWanted();
        }
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
        for (int spin = config.getWriteSpinCount(); spin > 0; spin--) {
            if (in.isEmpty()) {
                return;
            }
            long written;
            if (in.size() == 1 && in.current() instanceof ByteBuf single && single.isReadable()) {
                // The request/response common case: the buffer writes itself, with no ByteBuffer view made.
                written = single.getBytes(single.readerIndex(), socket, single.readableBytes());
                if (written <= 0) {
                    addInterest(NioIoOps.WRITE); // the socket's send buffer is full
                    return;
                }
                in.removeBytes(written);
                continue;
            }
            ByteBuffer[] buffers = in.nioBuffers(MAX_GATHERED_BUFFERS, Integer.MAX_VALUE);
            int count = in.nioBufferCount();
            if (count == 0) {
                Object msg = in.current();
                if (msg instanceof FileRegion region) {
                    if (!writeFileRegion(in, region)) {
                        return;
                    }
                } else if (msg instanceof ByteBuf) {
                    in.remove(); // empty buffer: nothing to send
                } else {
                    in.remove(new UnsupportedOperationException("cannot write a " + msg.getClass().getName()));
                }
                continue;
            }
            written = count == 1 ? socket.write(buffers[0]) : socket.write(buffers, 0, count);
            if (written <= 0) {
                addInterest(NioIoOps.WRITE); // the socket's send buffer is full
                return;
            }
            in.removeBytes(written);
        }
        if (!in.isEmpty()) {
            eventLoop().execute(this::resumeWrites); // still writable, but other channels come first
        }
    }

    /** One transferTo of {@code region}; false if the socket is full and write readiness was asked for. */
    private boolean writeFileRegion(ChannelOutboundBuffer in, FileRegion region) throws IOException {
        long before = region.transferred();
        if (before < region.count() && region.transferTo(socket) == 0) {
            addInterest(NioIoOps.WRITE);
            return false;
        }
        in.countWritten(region.transferred() - before);
        if (region.transferred() >= region.count()) {
            in.remove();
        }
        return true;
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
