package io.rill.handler.ssl;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

import jdk.jfr.FlightRecorder;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.socket.LingeringClose;
import io.rill.handler.codec.ByteToMessageDecoder;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.ImmediateEventExecutor;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * TLS for a channel over a {@link SSLEngine}: the first handler of the pipeline, it decrypts
 * what is read and encrypts what is written.
 *
 * <pre>
 *   read:  bytes ─► cumulation ─► whole, checked records ─► engine.unwrap ─► plaintext downstream
 *                                 (SslRecords: partial records wait, bad headers close)
 *   write: plaintext ─► PendingPlaintext ─(flush, after the handshake)─► records ≤ 16 KiB
 *                       (small writes gathered) ─► engine.wrap ─► ciphertext to the socket
 * </pre>
 *
 * <p><b>Handshake.</b> Starts when the channel is active (a client sends its hello at once).
 * {@link #handshakeFuture()} and an {@link SslHandshakeCompletionEvent} report its outcome; it
 * fails with {@link SslHandshakeTimeoutException} after {@link #setHandshakeTimeout} (10 s by
 * default). Writes made before it completes are held and encrypted after: they count toward the
 * channel's writability (so {@code isWritable()} turns false past the high water mark) and are
 * capped by {@link #setMaxPendingPlaintextBytes} (16 MiB by default). Delegated engine
 * tasks (key exchange, certificate checks) run on the event loop, or on an executor given to
 * the constructor, during which the handler waits with its input unread. Renegotiation is refused: in TLS 1.2 a
 * handshake record after the handshake closes the connection (TLS 1.3 has none).
 *
 * <p><b>Closure.</b> {@code close()} sends close_notify and closes the channel once it is
 * flushed, or after {@link #setCloseNotifyFlushTimeout} at the latest. A close_notify from the
 * peer completes {@link #sslCloseFuture()}, fires {@link SslCloseCompletionEvent#SUCCESS} and
 * closes the channel; a connection that ends without one fires the event with a cause, since
 * the data may have been truncated.
 *
 * <p><b>Bad input</b> never reaches the engine: plaintext, garbage or an oversized record
 * raise {@link NotSslRecordException} and close. Engine failures (bad certificate, bad MAC)
 * send the engine's alert and close. Either way the failure also goes to
 * {@code exceptionCaught} and no buffer is leaked.
 *
 * <p>{@link #isEncrypted} tells whether bytes start a TLS record, for port unification.
 *
 * <p>Case IDs such as T-07 in this file are those of docs/security-cases.md.
 */
public class SslHandler extends ByteToMessageDecoder {

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
    /** Decrypted bytes are passed on in buffers of about this size, not one per record. */
    private static final int MAX_PLAINTEXT_CHUNK = 64 * 1024;

    private final SSLEngine engine;
    private final boolean startTls;
    /** The engine works on native memory: give it direct buffers. */
    private final boolean nativeEngine;
    private final DelegatedTasks tasks;
    private final PendingPlaintext pending = new PendingPlaintext();
    private final CompletedWrites completedWrites = new CompletedWrites();
    private final Promise<Channel> handshakePromise = ImmediateEventExecutor.INSTANCE.newPromise();
    private final Promise<Channel> sslClosePromise = ImmediateEventExecutor.INSTANCE.newPromise();

    private long handshakeTimeoutMillis = 10_000;
    private long maxPendingPlaintextBytes = 16 * 1024 * 1024;
    private long closeNotifyFlushTimeoutMillis = 3_000;

    /** The first write went out in the clear (startTls). */
    private boolean sentFirstMessage;
    private boolean handshakeStarted;
    private long handshakeStartNanos; // System.nanoTime() when it started, for the io.rill.TlsHandshake event
    /** The handshake ended, well or badly; {@link #handshakePromise} is done. */
    private boolean handshakeDone;
    /** TLS 1.2 or older was negotiated: a later handshake record is a renegotiation. */
    private boolean refuseHandshakeRecords;
    /** close() ran: close_notify is queued, writes are refused. */
    private boolean outboundClosed;
    /** A fatal error closed the connection: remaining input is dropped unread. */
    private boolean failed;
    /** After a fatal error, its alert is on its way and the close lingers until the peer has it ({@link LingeringClose}). */
    private boolean alertLingering;
    /** Records were written since the last flush. */
    private boolean needsFlush;
    private ScheduledFuture<?> handshakeTimer;

    /**
     * A handler over {@code engine}, configured for client or server mode already.
     *
     * @param engine the engine; owned by this handler from now on
     */
    public SslHandler(SSLEngine engine) {
        this(engine, false);
    }

    /**
     * A handler over {@code engine} that may let its first write pass unencrypted.
     *
     * @param engine   the engine; owned by this handler from now on
     * @param startTls whether the first write passes unencrypted: a server that accepted a STARTTLS
     *                 command adds this handler, then writes its reply in the clear.
     */
    public SslHandler(SSLEngine engine, boolean startTls) {
        this(engine, startTls, null);
    }

    /**
     * A handler over {@code engine} whose delegated tasks run on {@code delegatedTaskExecutor}.
     *
     * @param engine                the engine; owned by this handler from now on
     * @param startTls              whether the first write passes unencrypted
     * @param delegatedTaskExecutor where the engine's delegated tasks run (they can take milliseconds:
     *                              RSA signatures, certificate path checks), so the event loop serves other
     *                              channels meanwhile; null runs them inline
     */
    public SslHandler(SSLEngine engine, boolean startTls, Executor delegatedTaskExecutor) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.nativeEngine = engine instanceof NativeEngine;
        this.startTls = startTls;
        this.tasks = new DelegatedTasks(delegatedTaskExecutor);
    }

    /**
     * The engine this handler drives. Inspect it (its session, its parameters) but do not wrap or
     * unwrap with it: the handler owns its state.
     *
     * @return the engine
     */
    public SSLEngine engine() {
        return engine;
    }

    /**
     * The protocol ALPN chose, or null if none was negotiated (or the handshake is not done).
     *
     * @return the ALPN protocol name, e.g. {@code "h2"}, or null
     */
    public String applicationProtocol() {
        String protocol = engine.getApplicationProtocol();
        return protocol == null || protocol.isEmpty() ? null : protocol;
    }

    /**
     * Whether the handshake resumed an earlier session (RFC 8446 §2.2, RFC 5077) instead of a
     * full one; false before it completes. Known for {@link SslProvider#OPENSSL} engines only: the
     * JDK's {@code SSLEngine} does not say, so for any other engine this throws
     * {@link UnsupportedOperationException}.
     *
     * @return true if the session was resumed
     * @throws UnsupportedOperationException if the engine is not an OPENSSL engine
     */
    public boolean isSessionReused() {
        return nativeEngine("does not tell whether it resumed a session").isSessionReused();
    }

    /**
     * Staples {@code der}, a DER-encoded OCSP response (RFC 6960) for this server's certificate,
     * to the handshake (RFC 6066 §8) for clients that ask; fetching and refreshing it is the
     * application's job. {@link SslProvider#OPENSSL} servers built with {@link SslContextBuilder#enableOcsp}
     * only, before the handler joins an active channel (the handshake starts then).
     *
     * @param der the OCSP response, DER-encoded; not null or empty
     * @throws UnsupportedOperationException if the engine is the JDK's
     * @throws IllegalStateException if this is not a server whose context enabled OCSP, or the handshake
     *                               has started
     */
    public void setOcspResponse(byte[] der) {
        nativeEngine("takes no OCSP response per connection").setOcspResponse(der);
    }

    /**
     * After the handshake, the DER-encoded OCSP response the server stapled, or null if it sent
     * none or this client did not ask ({@link SslContextBuilder#enableOcsp}).
     *
     * @return the stapled response, or null
     */
    public byte[] ocspResponse() {
        List<byte[]> responses = engine.getSession() instanceof ExtendedSSLSession session
                ? session.getStatusResponses() : List.of();
        return responses.isEmpty() ? null : responses.get(0).clone();
    }

    private NativeEngine nativeEngine(String jdkCannot) {
        if (!(engine instanceof NativeEngine nativeEngine)) {
            throw new UnsupportedOperationException("the JDK's SSLEngine " + jdkCannot);
        }
        return nativeEngine;
    }

    /**
     * Completes with the channel when the handshake succeeds; fails with its cause otherwise.
     *
     * @return the handshake's future; completes on the event loop
     */
    public Future<Channel> handshakeFuture() {
        return handshakePromise;
    }

    /**
     * Completes when the peer's close_notify arrives; fails if the connection ends without one.
     *
     * @return the future of the peer's close_notify
     */
    public Future<Channel> sslCloseFuture() {
        return sslClosePromise;
    }

    /**
     * How long the handshake may take; 0 disables the timeout. Set before the channel is active.
     *
     * @param timeout the limit; 0 for none
     * @param unit    the unit of {@code timeout}
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public void setHandshakeTimeout(long timeout, TimeUnit unit) {
        handshakeTimeoutMillis = nonNegativeMillis(timeout, unit);
    }

    /**
     * The handshake time limit; see {@link #setHandshakeTimeout}.
     *
     * @return the limit in milliseconds; 0 for none
     */
    public long getHandshakeTimeoutMillis() {
        return handshakeTimeoutMillis;
    }

    /**
     * How many plaintext bytes may wait for the handshake to complete: a write that would
     * exceed it fails with {@link PendingWriteLimitExceededException} (its buffer released; the
     * channel stays open). Bounds the memory of a peer that never finishes its handshake.
     *
     * @param bytes the most plaintext bytes that may wait; positive
     * @throws IllegalArgumentException if {@code bytes} is not positive
     */
    public void setMaxPendingPlaintextBytes(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("maxPendingPlaintextBytes: " + bytes + " (expected: > 0)");
        }
        maxPendingPlaintextBytes = bytes;
    }

    /**
     * The bound on plaintext waiting for the handshake; see {@link #setMaxPendingPlaintextBytes}.
     *
     * @return the bound in bytes
     */
    public long getMaxPendingPlaintextBytes() {
        return maxPendingPlaintextBytes;
    }

    /**
     * How long close() waits for close_notify to be flushed before closing anyway.
     *
     * @param timeout the limit; 0 closes without waiting
     * @param unit    the unit of {@code timeout}
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public void setCloseNotifyFlushTimeout(long timeout, TimeUnit unit) {
        closeNotifyFlushTimeoutMillis = nonNegativeMillis(timeout, unit);
    }

    /**
     * How long {@code close()} waits for close_notify to be flushed; see {@link #setCloseNotifyFlushTimeout}.
     *
     * @return the limit in milliseconds
     */
    public long getCloseNotifyFlushTimeoutMillis() {
        return closeNotifyFlushTimeoutMillis;
    }

    private static long nonNegativeMillis(long timeout, TimeUnit unit) {
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout: " + timeout + " (expected: >= 0)");
        }
        return unit.toMillis(timeout);
    }

    /**
     * Whether {@code buf}'s readable bytes start with a TLS record header this handler accepts,
     * for port unification. Needs at least 5 readable bytes; does not move any index.
     *
     * @param buf the bytes received so far; not consumed, not released
     * @return true if they start with a TLS record header
     * @throws IllegalArgumentException if fewer than 5 bytes are readable
     */
    public static boolean isEncrypted(ByteBuf buf) {
        if (buf.readableBytes() < SslRecords.HEADER_LENGTH) {
            throw new IllegalArgumentException("need " + SslRecords.HEADER_LENGTH + " readable bytes, have " + buf.readableBytes());
        }
        return SslRecords.recordLength(buf, buf.readerIndex()) != SslRecords.NOT_ENCRYPTED;
    }

    // ---------------------------------------------------------------- lifecycle

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isActive()) {
            startHandshake(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        startHandshake(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        ClosedChannelException closed = new ClosedChannelException();
        boolean hadHandshake = handshakeDone && handshakePromise.isSuccess();
        handshakeFailed(ctx, new SSLHandshakeException("connection closed during the TLS handshake"));
        failPending(ctx, closed);
        engine.closeOutbound();
        if (hadHandshake && !sslClosePromise.isDone()) {
            SSLException truncated = new SSLException("connection closed without close_notify: data may be truncated");
            sslClosePromise.tryFailure(truncated);
            ctx.fireUserEventTriggered(new SslCloseCompletionEvent(truncated));
        }
        super.channelInactive(ctx);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
        failPending(ctx, new SSLException("SslHandler removed before the write was encrypted"));
        handshakeFailed(ctx, new SSLHandshakeException("SslHandler removed during the handshake"));
        sslClosePromise.tryFailure(new SSLException("SslHandler removed"));
        if (engine instanceof NativeEngine nativeEngine) {
            nativeEngine.free(); // the engine goes with the handler: nobody else can use it
        }
    }

    // ---------------------------------------------------------------- outbound

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
        if (!(msg instanceof ByteBuf buf)) {
            ReferenceCountUtil.release(msg);
            promise.tryFailure(new IllegalArgumentException("SslHandler encrypts ByteBufs only, not "
                    + (msg == null ? "null" : msg.getClass().getName())));
            return;
        }
        if (startTls && !sentFirstMessage) {
            sentFirstMessage = true;
            ctx.write(buf, promise);
            return;
        }
        if (outboundClosed || failed) {
            buf.release();
            promise.tryFailure(new SSLException("SslHandler is closed: the write was not encrypted"));
            return;
        }
        if (!handshakeDone && pending.readableBytes() + buf.readableBytes() > maxPendingPlaintextBytes) {
            int size = buf.readableBytes();
            buf.release();
            promise.tryFailure(new PendingWriteLimitExceededException("a write of " + size + " bytes would "
                    + "exceed the " + maxPendingPlaintextBytes + " bytes that may wait for the TLS handshake ("
                    + pending.readableBytes() + " wait already)"));
            return;
        }
        pending.add(buf, promise);
        syncPendingBytes(ctx);
    }

    /** Counts what {@link #pending} holds now toward the channel's writability. */
    private void syncPendingBytes(ChannelHandlerContext ctx) {
        if (pending.syncWritability(ctx.channel()) && !handshakeDone && !ctx.channel().config().isReadingAutomatically()) {
            ctx.read(); // the handshake needs input to end, even while reading is paused for these bytes
        }
    }

    private void failPending(ChannelHandlerContext ctx, Throwable cause) {
        pending.failAll(cause);
        syncPendingBytes(ctx);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) throws Exception {
        if (handshakeDone && handshakePromise.isSuccess() && !pending.isEmpty() && !tasks.isRunning()) {
            try {
                wrapApplicationData(ctx);
            } catch (SSLException e) {
                fail(ctx, e, true);
                ctx.fireExceptionCaught(e);
                return;
            }
        }
        needsFlush = false;
        ctx.flush();
    }

    /** Sends close_notify, then closes the channel once it is flushed (or after the flush timeout). */
    @Override
    public void close(ChannelHandlerContext ctx, Promise<Void> promise) throws Exception {
        if (alertLingering && !ctx.executor().isShuttingDown()) {
            // A handler that saw the failure closes too; the alert's lingering close (at most 5 s)
            // ends the channel. A loop that shuts down closes its channels at once all the same.
            ctx.channel().closeFuture().addListener(f -> promise.trySuccess(null));
            return;
        }
        if (outboundClosed || failed || !ctx.channel().isActive()) {
            ctx.close(promise);
            return;
        }
        outboundClosed = true;
        Future<Void> lastWrite = null;
        try {
            if (handshakeDone && handshakePromise.isSuccess()) {
                wrapApplicationData(ctx); // what was written before close() still goes out
            }
            engine.closeOutbound();
            lastWrite = wrapHandshakeData(ctx);
        } catch (SSLException e) {
            // The engine is unusable; closing without close_notify is all that is left.
        }
        failPending(ctx, new SSLException("SslHandler closed before the write was encrypted"));
        needsFlush = false;
        ctx.flush();
        closeAfter(ctx, lastWrite, promise);
    }

    private void closeAfter(ChannelHandlerContext ctx, Future<Void> write, Promise<Void> promise) {
        if (write == null || write.isDone() || closeNotifyFlushTimeoutMillis == 0) {
            ctx.close(promise);
            return;
        }
        boolean[] closed = new boolean[1];
        Runnable closeOnce = () -> {
            if (!closed[0]) {
                closed[0] = true;
                ctx.close(promise);
            }
        };
        ScheduledFuture<?> timer = ctx.executor().schedule(closeOnce, closeNotifyFlushTimeoutMillis,
                TimeUnit.MILLISECONDS);
        write.addListener(f -> {
            timer.cancel(false);
            closeOnce.run();
        });
    }

    // ---------------------------------------------------------------- handshake

    private void startHandshake(ChannelHandlerContext ctx) {
        if (handshakeStarted) {
            return;
        }
        handshakeStarted = true;
        handshakeStartNanos = System.nanoTime();
        if (handshakeTimeoutMillis > 0) {
            handshakeTimer = ctx.executor().schedule(() -> handshakeTimedOut(ctx), handshakeTimeoutMillis,
                    TimeUnit.MILLISECONDS);
        }
        try {
            engine.beginHandshake();
            if (engine.getUseClientMode()) {
                wrapHandshakeData(ctx);
                flushIfNeeded(ctx);
            }
        } catch (SSLException e) {
            fail(ctx, e, true);
            ctx.fireExceptionCaught(e);
        }
    }

    private void handshakeTimedOut(ChannelHandlerContext ctx) {
        if (handshakeDone) {
            return;
        }
        SslHandshakeTimeoutException e = new SslHandshakeTimeoutException(
                "the TLS handshake did not complete within " + handshakeTimeoutMillis + " ms");
        fail(ctx, e, true);
        ctx.fireExceptionCaught(e);
    }

    private void handshakeSucceeded(ChannelHandlerContext ctx) throws SSLException {
        if (handshakeDone) {
            return;
        }
        handshakeDone = true;
        cancelHandshakeTimer();
        refuseHandshakeRecords = !"TLSv1.3".equals(engine.getSession().getProtocol());
        if (FlightRecorder.isInitialized()) { // else the event class would load all of JFR
            TlsHandshakeEvent.commit(engine, nativeEngine, handshakeStartNanos, null);
        }
        handshakePromise.trySuccess(ctx.channel());
        ctx.fireUserEventTriggered(SslHandshakeCompletionEvent.SUCCESS);
        if (engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP && !ctx.isRemoved()) {
            wrapHandshakeData(ctx); // e.g. TLS 1.3 session tickets an engine queues after finishing
        }
        if (!pending.isEmpty() && !ctx.isRemoved()) {
            wrapApplicationData(ctx); // writes made during the handshake
        }
    }

    private void handshakeFailed(ChannelHandlerContext ctx, Throwable cause) {
        if (handshakeDone) {
            return;
        }
        handshakeDone = true;
        cancelHandshakeTimer();
        if (FlightRecorder.isInitialized()) {
            TlsHandshakeEvent.commit(engine, nativeEngine, handshakeStartNanos, cause);
        }
        handshakePromise.tryFailure(cause);
        ctx.fireUserEventTriggered(new SslHandshakeCompletionEvent(cause));
    }

    private void cancelHandshakeTimer() {
        if (handshakeTimer != null) {
            handshakeTimer.cancel(false);
            handshakeTimer = null;
        }
    }

    /**
     * A fatal error: the handshake (if running) fails, queued writes fail, the engine's alert is
     * sent when {@code sendAlert} (not for peers that do not speak TLS), and the channel closes,
     * after an alert lingering ({@link LingeringClose}): a peer still sending its records (a large
     * ClientHello) would otherwise get a reset that can drop the alert before it is read.
     */
    private void fail(ChannelHandlerContext ctx, Throwable cause, boolean sendAlert) {
        if (failed) {
            return;
        }
        failed = true;
        failPending(ctx, cause);
        engine.closeOutbound();
        // The alert goes out before anyone hears of the failure: a handler that closes on the
        // handshake's failure (ALPN negotiation does) would otherwise close before it is written.
        Future<Void> alert = sendAlert ? wrapAlert(ctx) : null;
        needsFlush = false;
        ctx.flush();
        alertLingering = alert != null;
        handshakeFailed(ctx, cause);
        sslClosePromise.tryFailure(cause);
        if (alert != null) {
            LingeringClose.closeAfter(alert, ctx);
        } else {
            ctx.close();
        }
    }

    /**
     * The engine's fatal alert, written; null if it made none. The JDK's engine rethrows the failure
     * of a delegated task (a malformed ClientHello extension) from the next wrap and gives the alert
     * only on the one after, so a wrap that throws is tried once more.
     */
    private Future<Void> wrapAlert(ChannelHandlerContext ctx) {
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                return wrapHandshakeData(ctx);
            } catch (SSLException ignored) {
                // the task's failure, rethrown: the alert comes next
            }
        }
        return null; // no alert could be produced; the connection closes all the same
    }

    // ---------------------------------------------------------------- inbound

    /**
     * The peer's stream ended (FIN with half-closure on, or the close): once what it sent is
     * decoded, a handshake that still waits for its bytes can never complete, so the connection
     * ends now instead of at the handshake timeout. A client that connects and leaves before its
     * ClientHello (a port probe, a health check) held a server's connection for the full 10 s
     * (docs/security-cases.md, case TL-08).
     * Not an error of the application's: the handshake future fails, nothing is fired.
     */
    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        super.decodeLast(ctx, in, out);
        if (!handshakeDone && !failed && !tasks.isRunning() && ctx.channel().isActive()
                && engine.getHandshakeStatus() == HandshakeStatus.NEED_UNWRAP) {
            fail(ctx, new SSLHandshakeException("the peer ended its stream before the TLS handshake completed"), false);
        }
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (tasks.isRunning()) {
            return; // the input waits in the cumulation; resumeAfterTasks decodes it
        }
        try {
            unwrapRecords(ctx, in, out);
        } catch (SSLException e) {
            in.skipBytes(in.readableBytes());
            fail(ctx, e, !(e instanceof NotSslRecordException));
            throw e;
        } finally {
            flushIfNeeded(ctx);
        }
    }

    /** Unwraps every whole record readable in {@code in}, adding plaintext to {@code out}. */
    private void unwrapRecords(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws SSLException {
        ByteBuf plain = null;
        boolean ok = true;
        try {
            while (!failed && !tasks.isRunning() && !ctx.isRemoved()) {
                int length = SslRecords.checkedRecordLength(in, in.readerIndex());
                if (length == SslRecords.NOT_ENOUGH_DATA || length > in.readableBytes()) {
                    return; // a partial record waits for the rest (T-07)
                }
                if (refuseHandshakeRecords && in.getUnsignedByte(in.readerIndex()) == SslRecords.HANDSHAKE) {
                    throw new SSLHandshakeException("renegotiation refused: the peer sent a handshake record "
                            + "after the handshake");
                }
                if (plain == null) {
                    plain = allocate(ctx, Math.max(length, 1024));
                }
                if (!unwrapRecord(ctx, in, length, plain)) {
                    return; // close_notify: anything after it is ignored
                }
                if (plain.readableBytes() >= MAX_PLAINTEXT_CHUNK) {
                    out.add(plain);
                    plain = null;
                }
            }
        } catch (SSLException | RuntimeException e) {
            ok = false;
            throw e;
        } finally {
            if (plain != null) {
                // After a failure the channel is closing: what was decrypted with it is dropped.
                if (ok && plain.isReadable()) {
                    out.add(plain);
                } else {
                    plain.release();
                }
            }
        }
    }

    /** Unwraps the one record of {@code length} bytes at {@code in}'s reader index; false once closed. */
    private boolean unwrapRecord(ChannelHandlerContext ctx, ByteBuf in, int length, ByteBuf plain)
            throws SSLException {
        for (;;) {
            plain.ensureWritable(length);
            SSLEngineResult result = engine.unwrap(in.nioBuffer(in.readerIndex(), length),
                    plain.nioBuffer(plain.writerIndex(), plain.writableBytes()));
            in.skipBytes(result.bytesConsumed());
            plain.writerIndex(plain.writerIndex() + result.bytesProduced());
            switch (result.getStatus()) {
                case BUFFER_OVERFLOW -> {
                    int needed = engine.getSession().getApplicationBufferSize();
                    if (plain.writableBytes() >= needed) {
                        throw new SSLException("SSLEngine asked for more than " + needed + " bytes of room");
                    }
                    plain.ensureWritable(needed);
                    continue;
                }
                case CLOSED -> {
                    closeNotifyReceived(ctx);
                    return false;
                }
                case BUFFER_UNDERFLOW -> throw new SSLException("SSLEngine found a whole record incomplete");
                default -> {
                    if (result.bytesConsumed() == 0) {
                        throw new SSLException("SSLEngine made no progress on a " + length + "-byte record");
                    }
                }
            }
            handleHandshakeStatus(ctx, result.getHandshakeStatus());
            return true;
        }
    }

    private void handleHandshakeStatus(ChannelHandlerContext ctx, HandshakeStatus status) throws SSLException {
        if (status == HandshakeStatus.NEED_TASK) {
            status = tasks.run(engine, ctx.executor(), failure -> resumeAfterTasks(ctx, failure));
        }
        if (status == null) {
            return; // tasks went to the executor
        }
        switch (status) {
            case FINISHED -> handshakeSucceeded(ctx);
            case NEED_WRAP -> wrapHandshakeData(ctx);
            default -> {
                // NEED_UNWRAP: the next record continues; NOT_HANDSHAKING: application data.
            }
        }
    }

    /** Back on the event loop after delegated tasks: continue the handshake, then the waiting input. */
    private void resumeAfterTasks(ChannelHandlerContext ctx, Throwable taskFailure) {
        if (failed || ctx.isRemoved()) {
            return;
        }
        try {
            if (taskFailure != null) {
                throw new SSLHandshakeException("a delegated task failed: " + taskFailure);
            }
            handleHandshakeStatus(ctx, engine.getHandshakeStatus());
            if (handshakeDone && !pending.isEmpty() && !tasks.isRunning()) {
                wrapApplicationData(ctx);
            }
        } catch (SSLException e) {
            fail(ctx, e, true);
            ctx.fireExceptionCaught(e);
            return;
        }
        flushIfNeeded(ctx);
        try {
            // An empty read makes the decoder loop over what arrived while the tasks ran.
            channelRead(ctx, ctx.alloc().heapBuffer(0));
            channelReadComplete(ctx);
        } catch (Exception e) {
            ctx.fireExceptionCaught(e);
        }
    }

    private void closeNotifyReceived(ChannelHandlerContext ctx) {
        if (!handshakeDone) {
            handshakeFailed(ctx, new SSLHandshakeException("the peer closed the TLS session during the handshake"));
        }
        if (sslClosePromise.trySuccess(ctx.channel())) {
            ctx.fireUserEventTriggered(SslCloseCompletionEvent.SUCCESS);
        }
        // Answer with our close_notify (through this handler's close) and end the connection,
        // once the plaintext decoded before the close_notify has been passed on.
        ctx.executor().execute(() -> ctx.channel().close());
    }

    // ---------------------------------------------------------------- wrapping

    /**
     * Wraps handshake messages (or alerts, or close_notify) until the engine needs input;
     * returns the future of the last record written, or null if none was.
     */
    private Future<Void> wrapHandshakeData(ChannelHandlerContext ctx) throws SSLException {
        Future<Void> lastWrite = null;
        int idle = 0;
        for (;;) {
            ByteBuf out = allocate(ctx, engine.getSession().getPacketBufferSize());
            SSLEngineResult result;
            try {
                result = engine.wrap(EMPTY, out.nioBuffer(0, out.capacity()));
            } catch (SSLException e) {
                out.release();
                throw e;
            }
            if (result.bytesProduced() > 0) {
                out.writerIndex(result.bytesProduced());
                lastWrite = ctx.write(out);
                needsFlush = true;
                idle = 0;
            } else {
                out.release();
                if (++idle > 2) {
                    throw new SSLException("SSLEngine made no progress wrapping: " + result);
                }
            }
            if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                return lastWrite;
            }
            HandshakeStatus status = result.getHandshakeStatus();
            if (status == HandshakeStatus.NEED_TASK) {
                status = tasks.run(engine, ctx.executor(), failure -> resumeAfterTasks(ctx, failure));
                if (status == null) {
                    return lastWrite; // resumeAfterTasks goes on
                }
            }
            if (status == HandshakeStatus.FINISHED) {
                handshakeSucceeded(ctx);
                return lastWrite;
            }
            if (status != HandshakeStatus.NEED_WRAP && result.getStatus() != SSLEngineResult.Status.BUFFER_OVERFLOW) {
                return lastWrite;
            }
        }
    }

    /** Encrypts the pending writes into records of up to 16 KiB and writes them (no flush). */
    private void wrapApplicationData(ChannelHandlerContext ctx) throws SSLException {
        ByteBuf plain;
        try {
            while ((plain = pending.removeRecord(ctx.alloc(), nativeEngine, SslRecords.MAX_PLAINTEXT_LENGTH,
                    completedWrites.list())) != null) {
                ByteBuf out = allocate(ctx, plain.readableBytes() + 1024);
                try {
                    SslRecords.wrap(engine, plain, out);
                } catch (SSLException e) {
                    out.release();
                    completedWrites.fail(e);
                    throw e;
                } finally {
                    plain.release();
                }
                ctx.write(out, completedWrites.promiseForRecord(ctx));
                needsFlush = true;
            }
        } finally {
            syncPendingBytes(ctx);
        }
    }

    /**
     * Buffers the engine reads and writes: heap for the JDK's engine (it works on arrays), direct
     * for a native one, which can then use them in place instead of copying.
     */
    private ByteBuf allocate(ChannelHandlerContext ctx, int capacity) {
        return nativeEngine ? ctx.alloc().directBuffer(capacity) : ctx.alloc().heapBuffer(capacity);
    }

    private void flushIfNeeded(ChannelHandlerContext ctx) {
        if (needsFlush) {
            needsFlush = false;
            ctx.flush();
        }
    }
}
