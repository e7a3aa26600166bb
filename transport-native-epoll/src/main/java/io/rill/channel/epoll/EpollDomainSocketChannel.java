package io.rill.channel.epoll;

import java.io.IOException;

import io.rill.channel.Channel;
import io.rill.channel.ChannelException;
import io.rill.channel.ChannelOutboundBuffer;
import io.rill.channel.ChannelPipeline;
import io.rill.channel.EventLoop;

/**
 * An {@link EpollSocketChannel} over a Unix-domain stream socket ({@code UnixDomainSocketAddress}),
 * plus what only Unix-domain sockets can do: pass descriptors ({@link FileDescriptor} messages,
 * {@code SCM_RIGHTS}) and tell who the peer is ({@link #peerCredentials()}). TCP and IP options
 * are reported unsupported.
 *
 * <p>A channel reads either bytes (the default) or descriptors
 * ({@link EpollChannelOption#DOMAIN_READ_FILE_DESCRIPTORS}); each descriptor travels with one byte
 * of data, so a stream that mixes both must be read in the matching mode by its protocol.
 */
public class EpollDomainSocketChannel extends EpollSocketChannel {

    /**
     * A new, unconnected Unix-domain channel on {@code loop}.
     *
     * @param loop the event loop that runs the channel's I/O, for its whole life
     */
    public EpollDomainSocketChannel(EventLoop loop) {
        super(null, loop, newSocket(true), false);
    }

    /** An accepted connection. */
    EpollDomainSocketChannel(Channel parent, EventLoop loop, LinuxSocket socket) {
        super(parent, loop, socket, true);
    }

    /**
     * The peer's process, user and group ids.
     *
     * @return the credentials, as the kernel recorded them at connect time
     * @throws io.rill.channel.ChannelException if the kernel refuses, for example on a closed socket
     */
    public PeerCredentials peerCredentials() {
        int[] ids = new int[3];
        try {
            Errors.check("getsockopt(SO_PEERCRED)", Native.peerCredentials(socket.fd(), ids));
        } catch (IOException e) {
            throw new ChannelException("cannot read the peer credentials of " + this, e);
        }
        return new PeerCredentials(ids[0], ids[1], ids[2]);
    }

    @Override
    protected Object filterOutboundMessage(Object msg) throws Exception {
        if (msg instanceof FileDescriptor fd && !isOutputShutdown()) {
            return fd;
        }
        return super.filterOutboundMessage(msg);
    }

    @Override
    boolean writeMessage(ChannelOutboundBuffer in, Object msg) throws IOException {
        if (!(msg instanceof FileDescriptor fd)) {
            return super.writeMessage(in, msg);
        }
        int r = Native.sendFd(socket.fd(), fd.intValue());
        if (r == -Errors.EAGAIN) {
            return false;
        }
        Errors.check("sendmsg(SCM_RIGHTS)", r);
        in.remove();
        return true;
    }

    @Override
    protected void readNow() {
        if (config().isReadFileDescriptors()) {
            readDescriptors();
        } else {
            super.readNow();
        }
    }

    /** One burst of received descriptors, each fired as a {@link FileDescriptor}. */
    private void readDescriptors() {
        if (isInputShutdown()) {
            removeInterest(READ_OPS);
            return;
        }
        readBurstStarted();
        ChannelPipeline pipeline = pipeline();
        boolean drained = false;
        boolean endOfStream = false;
        try {
            for (int i = config().getMaxMessagesPerRead(); i > 0 && isOpen() && !isInputShutdown(); i--) {
                long r = Native.recvFd(socket.fd());
                if (r == -Errors.EAGAIN || r == 0) {
                    drained = true;
                    endOfStream = r == 0;
                    break;
                }
                if (Errors.check("recvmsg", r) == Native.NO_FD) {
                    continue; // a byte without a descriptor: nothing to deliver in this mode
                }
                pipeline.fireChannelRead(new FileDescriptor((int) r));
                if (!config().isReadingAutomatically()) {
                    break;
                }
            }
            pipeline.fireChannelReadComplete();
            if (endOfStream) {
                inputEnded();
            }
        } catch (IOException e) {
            drained = true;
            pipeline.fireChannelReadComplete();
            pipeline.fireExceptionCaught(e);
            close(voidPromise());
        } finally {
            readBurstEnded(drained);
        }
    }
}
