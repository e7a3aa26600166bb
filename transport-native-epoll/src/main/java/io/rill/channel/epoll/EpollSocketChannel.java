package io.rill.channel.epoll;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
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
import io.rill.channel.socket.SocketChannel;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * A stream connection over a native socket, TCP or Unix-domain (see
 * {@link EpollDomainSocketChannel}), behaving like {@code NioSocketChannel}: one read burst
 * per readiness sized by {@link RecvByteBufAllocator.Handle}, straight into direct buffers;
 * gathering {@code sendmsg} of the flushed buffers; half closure with {@code ALLOW_HALF_CLOSURE}.
 *
 * <p>Linux specifics: end of stream is also signalled by {@code EPOLLRDHUP}; a reset or error
 * ({@code EPOLLERR}/{@code EPOLLHUP}) on a socket whose input is already shut down closes the
 * channel at once (SECURITY-CASES R-01: it must never be left open and ready). In edge mode a
 * burst cut short re-reads by itself (see {@link AbstractEpollChannel}).
 */
public class EpollSocketChannel extends AbstractEpollChannel implements SocketChannel {

    private final EpollSocketChannelConfig config;
    private final DirectIo io;
    private final FileRegionWriter fileWriter;
    private RecvByteBufAllocator.Handle recvHandle;
    private RecvByteBufAllocator recvHandleSource;
    /** Where the current or last connect went, for error messages. Loop-confined. */
    private SocketAddress requestedRemote;
    private volatile boolean connected;
    private volatile SocketAddress local;
    private volatile SocketAddress remote;
    private volatile boolean inputShutdown;
    private volatile boolean outputShutdown;
    /** Epoll said the peer shut its output (EPOLLRDHUP): read until end of stream, a short read is not the end. */
    private boolean readHangUp;

    /** A new, unconnected TCP channel on {@code loop}. */
    public EpollSocketChannel(EventLoop loop) {
        this(null, loop, newSocket(false), false);
    }

    /** A new channel ({@code connected} false) or an accepted one. */
    EpollSocketChannel(Channel parent, EventLoop loop, LinuxSocket socket, boolean connected) {
        super(parent, loop, socket);
        this.io = new DirectIo(socket);
        this.fileWriter = new FileRegionWriter(socket, io);
        this.config = new EpollSocketChannelConfig(this, new LinuxOptions(socket, this));
        this.connected = connected;
        if (connected) {
            this.local = socket.localAddress();
            this.remote = socket.remoteAddress();
        }
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
        return inputShutdown;
    }

    @Override
    public boolean isOutputShutdown() {
        return outputShutdown;
    }

    /** The kernel's TCP_INFO for this connection, read now; none for a Unix-domain socket. */
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
        return address != null ? address : socket.localAddress();
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return remote;
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
        try {
            super.doClose();
        } finally {
            fileWriter.close();
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
        if (ready.isErrorOrHangUp() && isOpen() && inputShutdown) {
            // Reset (or both directions ended) after our input was shut: nothing can come any more.
            close(voidPromise());
        }
    }

    @Override
    protected void doBeginRead() {
        if (inputShutdown) {
            return; // nothing will ever arrive
        }
        super.doBeginRead();
    }

    @Override
    protected void readNow() {
        if (inputShutdown) {
            removeInterest(READ_OPS);
            return;
        }
        readBurstStarted();
        ChannelPipeline pipeline = pipeline();
        RecvByteBufAllocator.Handle handle = recvHandle();
        handle.reset(config);
        ByteBuf buf = null;
        boolean drained = false;
        boolean endOfStream = false;
        try {
            do {
                buf = handle.allocate(alloc());
                handle.attemptedBytesRead(buf.writableBytes());
                handle.lastBytesRead(buf.writeBytes(io, buf.writableBytes()));
                if (handle.lastBytesRead() <= 0) {
                    buf.release();
                    buf = null;
                    endOfStream = handle.lastBytesRead() < 0;
                    drained = true;
                    break;
                }
                handle.incMessagesRead(1);
                ByteBuf msg = buf;
                buf = null; // the pipeline owns it now
                pipeline.fireChannelRead(msg);
            } while (handle.continueReading() && isOpen() && !inputShutdown);
            // A short read means drained, unless the peer's FIN is known to be waiting behind the data.
            drained |= handle.lastBytesRead() < handle.attemptedBytesRead() && !readHangUp;
            handle.readComplete();
            pipeline.fireChannelReadComplete();
            if (endOfStream) {
                inputEnded();
            }
        } catch (Throwable t) {
            drained = true;
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
            readBurstEnded(drained);
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
    final void inputEnded() {
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
        removeInterest(READ_OPS);
        try {
            socket.shutdown(true, false);
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
            throw new UnsupportedOperationException(getClass().getSimpleName()
                    + " writes ByteBufs and FileRegions, not a " + msg.getClass().getName());
        }
        if (buf.isDirect()) {
            return buf;
        }
        // The kernel needs native memory: copy a heap buffer once, into a pooled direct one.
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
        ByteBuffer[] views = in.nioBuffers(IovArray.MAX_COUNT, Integer.MAX_VALUE);
        int count = in.nioBufferCount();
        if (count == 0) {
            in.remove();
            return -1;
        }
        IovArray iov = IovArray.forThisThread();
        iov.addAll(views, count, io);
        long r = Native.writev(socket.fd(), iov.address(), iov.count());
        if (r == -Errors.EAGAIN) {
            return 0;
        }
        return Errors.check("sendmsg", r);
    }

    /** A file region counts against the water marks with what is left of it. */
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
            socket.shutdown(false, true);
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
