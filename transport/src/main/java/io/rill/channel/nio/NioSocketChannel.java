package io.rill.channel.nio;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;

import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelClosedException;
import io.rill.channel.ChannelException;
import io.rill.channel.ChannelOutboundBuffer;
import io.rill.channel.ChannelPipeline;
import io.rill.channel.EventLoop;
import io.rill.channel.FileRegion;
import io.rill.channel.RecvByteBufAllocator;
import io.rill.channel.socket.ChannelInputShutdownEvent;
import io.rill.channel.socket.ChannelInputShutdownReadComplete;
import io.rill.channel.socket.ChannelOutputShutdownEvent;
import io.rill.channel.socket.ServerSocketChannel;
import io.rill.channel.socket.SocketChannelConfig;
import io.rill.channel.socket.SocketOptionAccess;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * A stream connection over a JDK {@link SocketChannel}: TCP by default, or a Unix-domain stream
 * socket when opened with {@link java.net.StandardProtocolFamily#UNIX} (see
 * {@link NioDomainSocketChannel}); the two differ only in the options their socket has.
 *
 * <p>Reading follows {@link RecvByteBufAllocator.Handle}: one burst per read readiness, then
 * {@code channelReadComplete}. End of stream closes the channel, or with
 * {@code ALLOW_HALF_CLOSURE} shuts input down, fires {@link ChannelInputShutdownEvent} and
 * {@link ChannelInputShutdownReadComplete}, and stops watching for input for good (a socket at
 * end of stream is always readable; watching it would spin the loop). A read error (peer reset)
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
    /** Sizes read buffers; recreated when RCVBUF_ALLOCATOR changes. Loop-confined. */
    private RecvByteBufAllocator.Handle recvHandle;
    /** The allocator recvHandle came from. Loop-confined. */
    private RecvByteBufAllocator recvHandleSource;
    /** Where the current or last connect went, for error messages. Loop-confined. */
    private SocketAddress requestedRemote;
    /** Written on the loop, read anywhere. */
    private volatile boolean inputShutdown;
    private volatile boolean outputShutdown;

    /** A new, unconnected TCP channel on {@code loop}. */
    public NioSocketChannel(EventLoop loop) {
        this(null, loop, open(null));
    }

    /** A new, unconnected channel of {@code family} ({@code INET}, {@code INET6} or {@code UNIX}) on {@code loop}. */
    public NioSocketChannel(EventLoop loop, ProtocolFamily family) {
        this(null, loop, open(family));
    }

    /** Wraps {@code socket}, accepted by {@code parent} or connected elsewhere. */
    public NioSocketChannel(Channel parent, EventLoop loop, SocketChannel socket) {
        super(parent, loop, socket);
        this.socket = socket;
        this.config = new SocketChannelConfig(this, SocketOptionAccess.of(socket, this));
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
        return inputShutdown;
    }

    @Override
    public boolean isOutputShutdown() {
        return outputShutdown;
    }

    @Override
    protected SocketAddress localAddress0() {
        try {
            return socket.getLocalAddress();
        } catch (IOException e) {
            return null; // closed
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
        if (inputShutdown) {
            return; // nothing will ever arrive
        }
        super.doBeginRead();
    }

    private void read0() {
        if (inputShutdown) {
            removeInterest(NioIoOps.READ);
            return;
        }
        setReadPending(false);
        ChannelPipeline pipeline = pipeline();
        RecvByteBufAllocator.Handle handle = recvHandle();
        handle.reset(config);
        ByteBuf buf = null;
        boolean endOfStream = false;
        try {
            do {
                buf = handle.allocate(alloc());
                handle.attemptedBytesRead(buf.writableBytes());
                handle.lastBytesRead(buf.writeBytes(socket, buf.writableBytes()));
                if (handle.lastBytesRead() <= 0) {
                    buf.release();
                    buf = null;
                    endOfStream = handle.lastBytesRead() < 0;
                    break;
                }
                handle.incMessagesRead(1);
                ByteBuf msg = buf;
                buf = null; // the pipeline owns it now
                pipeline.fireChannelRead(msg);
            } while (handle.continueReading() && isOpen() && !inputShutdown);
            handle.readComplete();
            pipeline.fireChannelReadComplete();
            if (endOfStream) {
                inputEnded();
            }
        } catch (Throwable t) {
            if (buf != null) {
                buf.release();
            }
            handle.readComplete();
            pipeline.fireChannelReadComplete();
            pipeline.fireExceptionCaught(t);
            if (t instanceof IOException) {
                close(voidPromise()); // reset by peer and friends: the connection is gone
            }
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

    /** The peer sent end of stream. */
    private void inputEnded() {
        if (!config.isAllowHalfClosure()) {
            close(voidPromise());
            return;
        }
        if (inputShutdown) {
            return;
        }
        markInputShutdown();
        pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
        pipeline().fireUserEventTriggered(ChannelInputShutdownReadComplete.INSTANCE);
        if (outputShutdown) {
            close(voidPromise());
        }
    }

    private void markInputShutdown() {
        inputShutdown = true;
        setReadPending(false);
        removeInterest(NioIoOps.READ);
        try {
            socket.shutdownInput();
        } catch (IOException e) {
            // Already reset or closed by the peer: input is over either way.
        }
    }

    // ---------------------------------------------------------------- writing

    @Override
    protected Object filterOutboundMessage(Object msg) throws Exception {
        if (outputShutdown) {
            throw new ChannelClosedException(this + ": output was shut down; refused to write a "
                    + msg.getClass().getSimpleName());
        }
        if (msg instanceof FileRegion) {
            return msg;
        }
        if (!(msg instanceof ByteBuf buf)) {
            throw new UnsupportedOperationException(getClass().getSimpleName() + " writes ByteBufs and FileRegions, not a "
                    + msg.getClass().getName());
        }
        if (buf.isDirect()) {
            return buf;
        }
        // The JDK would copy a heap buffer into a thread-cached direct one on every write; copy once, pooled.
        int readable = buf.readableBytes();
        ByteBuf direct = alloc().directBuffer(readable);
        direct.writeBytes(buf, buf.readerIndex(), readable);
        buf.release();
        return direct;
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        if (outputShutdown) {
            ChannelClosedException cause = new ChannelClosedException(this + ": output was shut down");
            while (in.remove(cause)) {
                // fail every flushed write
            }
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
        if (region.transferred() < region.count() && region.transferTo(socket) == 0) {
            addInterest(NioIoOps.WRITE);
            return false;
        }
        if (region.transferred() >= region.count()) {
            in.remove();
        }
        return true;
    }

    /** A file region counts against the water marks with what is left of it, like a buffer's readable bytes. */
    @Override
    protected int messageSize(Object msg) {
        if (msg instanceof FileRegion region) {
            return (int) Math.min(Integer.MAX_VALUE, region.count() - region.transferred());
        }
        return super.messageSize(msg);
    }

    // ---------------------------------------------------------------- half closure

    @Override
    public Future<Void> shutdownInput() {
        return onLoop(promise -> {
            if (!inputShutdown) {
                markInputShutdown();
            }
            promise.trySuccess(null);
        });
    }

    @Override
    public Future<Void> shutdownOutput() {
        return onLoop(this::shutdownOutput0);
    }

    @Override
    public Future<Void> shutdown() {
        return onLoop(promise -> {
            if (!inputShutdown) {
                markInputShutdown();
            }
            shutdownOutput0(promise);
        });
    }

    private void shutdownOutput0(Promise<Void> promise) {
        if (outputShutdown) {
            promise.trySuccess(null);
            return;
        }
        outputShutdown = true;
        ChannelOutboundBuffer in = outboundBuffer();
        if (in != null) {
            ChannelClosedException cause = new ChannelClosedException(this + ": output shut down before the write");
            while (in.remove(cause)) {
                // fail every flushed write; unflushed ones fail when flushed
            }
        }
        try {
            socket.shutdownOutput();
        } catch (IOException e) {
            promise.tryFailure(e);
            return;
        }
        promise.trySuccess(null);
        pipeline().fireUserEventTriggered(ChannelOutputShutdownEvent.INSTANCE);
        if (inputShutdown) {
            close(voidPromise()); // both directions are done: nothing left for the channel to do
        }
    }

    /** Runs {@code op} on the loop once the channel is open and connected. */
    private Future<Void> onLoop(Consumer<Promise<Void>> op) {
        Promise<Void> promise = newPromise();
        Runnable task = () -> {
            if (!isActive()) {
                promise.tryFailure(new ChannelClosedException(this + " is not connected or closed; cannot shut down"));
                return;
            }
            op.accept(promise);
        };
        if (eventLoop().inEventLoop()) {
            task.run();
        } else {
            eventLoop().execute(task);
        }
        return promise;
    }
}
