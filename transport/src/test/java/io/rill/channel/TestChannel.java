package io.rill.channel;

import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.rill.buffer.ReferenceCountUtil;

/**
 * A socket-less channel on a real event loop for pipeline tests: active once registered,
 * keeps what it "writes" in {@link #written} (retained; the test releases), and leaves
 * unhandled inbound messages to AbstractChannel's defaults (released and logged).
 */
class TestChannel extends AbstractChannel {

    final ChannelConfig config = new ChannelConfig(this);
    final List<Object> written = new CopyOnWriteArrayList<>();
    private volatile boolean open = true;
    private volatile boolean active;
    /** When set, doWrite fails with it instead of writing. */
    volatile Exception writeFailure;

    TestChannel(EventLoop loop) {
        super(null, loop);
    }

    @Override
    public ChannelConfig config() {
        return config;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public boolean isActive() {
        return active;
    }

    @Override
    protected SocketAddress localAddress0() {
        return null;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return null;
    }

    @Override
    protected void doRegister(io.rill.util.concurrent.Promise<Void> promise) {
        active = true;
        promise.setSuccess(null);
    }

    @Override
    protected void doBind(SocketAddress localAddress) {
    }

    @Override
    protected void doDisconnect() {
    }

    @Override
    protected void doClose() {
        open = false;
        active = false;
    }

    @Override
    protected void doBeginRead() {
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        if (writeFailure != null) {
            throw writeFailure;
        }
        for (Object m; (m = in.current()) != null; ) {
            written.add(ReferenceCountUtil.retain(m));
            in.remove();
        }
    }

    void releaseWritten() {
        for (Object m : written) {
            ReferenceCountUtil.release(m);
        }
        written.clear();
    }
}
