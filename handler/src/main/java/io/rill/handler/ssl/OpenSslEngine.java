package io.rill.handler.ssl;

import java.lang.ref.Cleaner;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.security.cert.X509Certificate;
import java.util.List;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult.Status;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

import io.netty.internal.tcnative.Buffer;
import io.netty.internal.tcnative.SSL;

/**
 * An {@link SSLEngine} over one BoringSSL {@code SSL} and its memory BIO pair: ciphertext goes
 * in and out through a buffer handed to the BIO for the duration of one call.
 *
 * <pre>
 *   wrap:   [pending handshake/alert bytes] + SSL_do_handshake | SSL_write | SSL_shutdown ─► sink ─► dst
 *   unwrap: src (one whole record) ─► BIO ─► SSL_do_handshake, then SSL_read ─► dst
 * </pre>
 *
 * Output the caller had no room for waits in BoringSSL's non-application buffer and makes the
 * handshake status NEED_WRAP. Native memory needs direct buffers, so bytes are copied through
 * two per-thread scratch buffers (engines are used on their event loop thread).
 *
 * <p>{@link #free()} releases the {@code SSL} at once (SslHandler calls it when it leaves the
 * pipeline); a {@link Cleaner} frees an engine that was dropped without it.
 */
final class OpenSslEngine extends SSLEngine implements NativeEngine {

    static final int MAX_PLAINTEXT = SslRecords.MAX_PLAINTEXT_LENGTH;
    static final int MAX_RECORD = SslRecords.HEADER_LENGTH + SslRecords.MAX_CIPHERTEXT_LENGTH;
    /** Room for a flight of handshake records in one wrap. */
    private static final int NON_RECORD_SLACK = 8 * 1024;
    private static final Cleaner CLEANER = Cleaner.create();
    /** [0]: plaintext, [1]: ciphertext; per thread, so an engine holds no direct memory of its own. */
    private static final ThreadLocal<ByteBuffer[]> SCRATCH = ThreadLocal.withInitial(() -> new ByteBuffer[] {
        ByteBuffer.allocateDirect(MAX_PLAINTEXT), ByteBuffer.allocateDirect(MAX_RECORD + NON_RECORD_SLACK)});

    private final boolean client;
    private final NativeState state;
    private final Cleaner.Cleanable cleanable;
    private final OpenSslSession session;
    private SSLParameters parameters;

    private boolean handshakeStarted;
    private boolean handshakeFinished;
    /** FINISHED was returned once; afterwards the status is NOT_HANDSHAKING. */
    private boolean finishedReported;
    /** The client's first flight was produced. */
    private boolean helloSent;
    private boolean outboundClosed;
    private boolean shutdownSent;
    private boolean inboundDone;
    private boolean closeNotifyReceived;
    /** The last SSL_write wanted more room than the buffer had. */
    private boolean wantRoom;
    /** The finished handshake resumed a session (read before the SSL can be freed). */
    private boolean sessionReused;
    /** Why the trust manager refused the peer, for the handshake exception. */
    private Throwable verificationFailure;

    /** The native handles; separate from the engine so the Cleaner does not keep it reachable. */
    private static final class NativeState implements Runnable {
        final OpenSslNativeContext context;
        long ssl;
        long bio;

        NativeState(OpenSslNativeContext context, long ssl, long bio) {
            this.context = context;
            this.ssl = ssl;
            this.bio = bio;
        }

        @Override
        public void run() {
            if (ssl != 0) {
                context.engines.remove(ssl);
                SSL.freeSSL(ssl); // frees the BIO pair as well
                ssl = 0;
                bio = 0;
                OpenSsl.ENGINES_ALIVE.decrementAndGet();
                context.release();
            }
        }
    }

    OpenSslEngine(OpenSslNativeContext context, String peerHost, int peerPort, String endpointIdentification) {
        super(peerHost, peerPort);
        this.client = !context.server;
        context.retain();
        long ssl = SSL.newSSL(context.ctx, context.server);
        long bio = SSL.bioNewByteBuffer(ssl, OpenSslNativeContext.NON_APPLICATION_BUFFER_SIZE);
        OpenSsl.ENGINES_ALIVE.incrementAndGet();
        this.state = new NativeState(context, ssl, bio);
        this.cleanable = CLEANER.register(this, state);
        context.engines.put(ssl, new WeakReference<>(this));
        try {
            context.applyKeyMaterial(ssl);
        } catch (Exception e) {
            cleanable.clean();
            throw new IllegalStateException("BoringSSL refused the key material: " + e.getMessage(), e);
        }
        if (client && peerHost != null && !peerHost.isEmpty() && !isIpLiteral(peerHost)) {
            SSL.setTlsExtHostName(ssl, peerHost); // SNI (RFC 6066 §3): DNS names only
        }
        if (context.clientSessions != null) {
            context.clientSessions.offer(ssl, peerHost, peerPort);
        }
        if (client && context.ocspEnabled()) {
            SSL.enableOcsp(ssl); // BoringSSL asks for the status per SSL; its context-wide switch does nothing
        }
        parameters = new SSLParameters();
        parameters.setEndpointIdentificationAlgorithm(client ? endpointIdentification : null);
        parameters.setApplicationProtocols(context.applicationProtocols.toArray(new String[0]));
        this.session = new OpenSslSession(this);
    }

    private static boolean isIpLiteral(String host) {
        return host.indexOf(':') >= 0 || host.matches("[0-9.]+");
    }

    long ssl() {
        return state.ssl;
    }

    /** Frees the native {@code SSL} now; the engine is closed afterwards. */
    @Override
    public void free() {
        if (state.ssl != 0) {
            session.capture(); // keep what the session reports readable after the SSL is gone
        }
        outboundClosed = true;
        inboundDone = true;
        cleanable.clean();
    }

    @Override
    public boolean isSessionReused() {
        return sessionReused;
    }

    @Override
    public void setOcspResponse(byte[] der) {
        if (der == null) {
            throw new NullPointerException("der");
        }
        if (der.length == 0) {
            throw new IllegalArgumentException("an empty OCSP response");
        }
        if (client || !state.context.ocspEnabled()) {
            throw new IllegalStateException("only a server whose SslContext was built with enableOcsp(true) "
                    + "staples OCSP responses");
        }
        if (handshakeStarted || state.ssl == 0) {
            throw new IllegalStateException("the handshake has started: staple the OCSP response before");
        }
        SSL.setOcspResponse(state.ssl, der);
    }

    // ---------------------------------------------------------------- handshake and status

    @Override
    public void beginHandshake() throws SSLException {
        if (state.ssl == 0) {
            throw new SSLException("engine closed");
        }
        if (handshakeFinished) {
            throw new SSLException("renegotiation is not supported");
        }
        handshakeStarted = true;
    }

    @Override
    public HandshakeStatus getHandshakeStatus() {
        if (state.ssl == 0) {
            return HandshakeStatus.NOT_HANDSHAKING;
        }
        if (SSL.bioLengthNonApplication(state.bio) > 0) {
            return HandshakeStatus.NEED_WRAP;
        }
        if (!handshakeStarted || handshakeFinished) {
            return HandshakeStatus.NOT_HANDSHAKING;
        }
        if (outboundClosed) {
            return shutdownSent ? HandshakeStatus.NOT_HANDSHAKING : HandshakeStatus.NEED_WRAP;
        }
        return client && !helloSent ? HandshakeStatus.NEED_WRAP : HandshakeStatus.NEED_UNWRAP;
    }

    /** The status a wrap/unwrap result reports: FINISHED once, when nothing of the handshake is left to send. */
    private HandshakeStatus resultStatus() {
        if (handshakeFinished && !finishedReported && state.ssl != 0 && SSL.bioLengthNonApplication(state.bio) == 0) {
            finishedReported = true;
            return HandshakeStatus.FINISHED;
        }
        return getHandshakeStatus();
    }

    /** Runs SSL_do_handshake; true once it completed, throws on failure. */
    private boolean doHandshake() throws SSLException {
        handshakeStarted = true;
        int r = SSL.doHandshake(state.ssl);
        if (r == 1) {
            handshakeFinished = true;
            sessionReused = SSL.isSessionReused(state.ssl);
            session.capture();
            return true;
        }
        int error = SSL.getError(state.ssl, r);
        if (error == SSL.SSL_ERROR_WANT_READ || error == SSL.SSL_ERROR_WANT_WRITE) {
            return false;
        }
        throw handshakeFailure();
    }

    private SSLHandshakeException handshakeFailure() {
        String reason = SSL.getErrorString(SSL.getLastErrorNumber());
        SSL.clearError();
        SSLHandshakeException e = new SSLHandshakeException(verificationFailure != null
                ? "certificate refused: " + verificationFailure : "BoringSSL: " + reason);
        if (verificationFailure != null) {
            e.initCause(verificationFailure);
        }
        return e;
    }

    void beforeVerify(X509Certificate[] chain) {
        session.peerChainForVerification(chain);
    }

    void verificationFailed(Throwable cause) {
        verificationFailure = cause;
    }

    // ---------------------------------------------------------------- wrap

    @Override
    public SSLEngineResult wrap(ByteBuffer[] srcs, int offset, int length, ByteBuffer dst) throws SSLException {
        if (state.ssl == 0) {
            return new SSLEngineResult(Status.CLOSED, HandshakeStatus.NOT_HANDSHAKING, 0, 0);
        }
        int plaintext = (int) Math.min(MAX_PLAINTEXT, remaining(srcs, offset, length));
        if (handshakeFinished && !outboundClosed && plaintext > 0
                && dst.remaining() < plaintext + SSL.getMaxWrapOverhead(state.ssl)) {
            return new SSLEngineResult(Status.BUFFER_OVERFLOW, getHandshakeStatus(), 0, 0);
        }
        ByteBuffer[] scratch = SCRATCH.get();
        // A direct destination is written in place; a heap one through the scratch buffer.
        ByteBuffer out = dst.isDirect() ? null : scratch[1];
        int capacity = out == null ? dst.remaining() : Math.min(out.capacity(), dst.remaining());
        long sink = out == null ? Buffer.address(dst) + dst.position() : Buffer.address(out);
        int consumed = 0;
        int produced;
        SSLException failure = null;
        SSL.bioSetByteBuffer(state.bio, sink, capacity, true);
        try {
            if (SSL.bioLengthNonApplication(state.bio) > 0) {
                SSL.bioFlushByteBuffer(state.bio);
            }
            consumed = wrapStep(srcs, offset, length, plaintext, scratch[0]);
        } catch (SSLException e) {
            failure = e; // its alert is in the buffer already, or queued for the next wrap
        } finally {
            produced = capacity - SSL.bioLengthByteBuffer(state.bio);
            SSL.bioClearByteBuffer(state.bio);
        }
        if (out == null) {
            dst.position(dst.position() + produced);
        } else {
            out.clear().limit(produced);
            dst.put(out);
            out.clear();
        }
        if (failure != null) {
            throw failure;
        }
        if (wantRoom && produced == 0) {
            wantRoom = false;
            return new SSLEngineResult(Status.BUFFER_OVERFLOW, getHandshakeStatus(), 0, 0);
        }
        wantRoom = false;
        return new SSLEngineResult(outboundDone() ? Status.CLOSED : Status.OK, resultStatus(), consumed, produced);
    }

    /** The one thing this wrap does after flushing: a handshake step, close_notify, or a record. */
    private int wrapStep(ByteBuffer[] srcs, int offset, int length, int plaintext, ByteBuffer in)
            throws SSLException {
        if (outboundClosed) {
            if (handshakeFinished && !shutdownSent && !closeNotifySuppressed()) {
                SSL.shutdownSSL(state.ssl); // writes close_notify
            }
            shutdownSent = true;
            return 0;
        }
        if (!handshakeFinished) {
            if (handshakeStarted || client) {
                helloSent = true;
                doHandshake();
            }
            return 0;
        }
        if (plaintext == 0 || SSL.bioLengthNonApplication(state.bio) > 0
                || SSL.bioLengthByteBuffer(state.bio) < plaintext + SSL.getMaxWrapOverhead(state.ssl)) {
            return 0; // nothing to send, or queued handshake bytes (session tickets) go first
        }
        ByteBuffer first = srcs[offset];
        if (first.isDirect() && first.remaining() >= plaintext) {
            int written = SSL.writeToSSL(state.ssl, Buffer.address(first) + first.position(), plaintext);
            if (written <= 0) {
                return writeFailed(written);
            }
            first.position(first.position() + written);
            return written;
        }
        in.clear();
        for (int i = offset; i < offset + length && in.hasRemaining(); i++) {
            ByteBuffer src = srcs[i];
            int n = Math.min(src.remaining(), in.remaining());
            int limit = src.limit();
            src.limit(src.position() + n);
            in.put(src);
            src.limit(limit);
        }
        int written = SSL.writeToSSL(state.ssl, Buffer.address(in), in.position());
        if (written <= 0) {
            rewind(srcs, offset, length, in.position());
            return writeFailed(written);
        }
        rewind(srcs, offset, length, in.position() - written);
        return written;
    }

    /** SSL_write returned {@code result} <= 0: wait for room (returns 0) or fail. */
    private int writeFailed(int result) throws SSLException {
        int error = SSL.getError(state.ssl, result);
        if (error == SSL.SSL_ERROR_WANT_WRITE || error == SSL.SSL_ERROR_WANT_READ) {
            // BoringSSL sent what it owed first (TLS 1.3 session tickets) and ran out of room.
            wantRoom = true;
            return 0;
        }
        throw new SSLException("SSL_write failed: " + SSL.getErrorString(SSL.getLastErrorNumber()));
    }

    /** A peer that broke the handshake gets no close_notify after the alert. */
    private boolean closeNotifySuppressed() {
        return (SSL.getShutdown(state.ssl) & SSL.SSL_SENT_SHUTDOWN) != 0;
    }

    /** Gives back the last {@code unused} bytes copied from {@code srcs}. */
    private static void rewind(ByteBuffer[] srcs, int offset, int length, int unused) {
        for (int i = offset + length - 1; i >= offset && unused > 0; i--) {
            int back = Math.min(unused, srcs[i].position());
            srcs[i].position(srcs[i].position() - back);
            unused -= back;
        }
    }

    private boolean outboundDone() {
        return outboundClosed && shutdownSent && (state.ssl == 0 || SSL.bioLengthNonApplication(state.bio) == 0);
    }

    private static long remaining(ByteBuffer[] srcs, int offset, int length) {
        long n = 0;
        for (int i = offset; i < offset + length; i++) {
            n += srcs[i].remaining();
        }
        return n;
    }

    // ---------------------------------------------------------------- unwrap

    @Override
    public SSLEngineResult unwrap(ByteBuffer src, ByteBuffer[] dsts, int offset, int length) throws SSLException {
        if (state.ssl == 0 || inboundDone) {
            return new SSLEngineResult(Status.CLOSED, getHandshakeStatus(), 0, 0);
        }
        int available = src.remaining();
        if (available < SslRecords.HEADER_LENGTH) {
            return new SSLEngineResult(Status.BUFFER_UNDERFLOW, getHandshakeStatus(), 0, 0);
        }
        int p = src.position();
        int record = SslRecords.HEADER_LENGTH + (((src.get(p + 3) & 0xFF) << 8) | (src.get(p + 4) & 0xFF));
        if (record > MAX_RECORD) {
            throw new SSLException("record of " + record + " bytes");
        }
        if (record > available) {
            return new SSLEngineResult(Status.BUFFER_UNDERFLOW, getHandshakeStatus(), 0, 0);
        }
        if (handshakeFinished && remaining(dsts, offset, length) < Math.min(MAX_PLAINTEXT, record)) {
            return new SSLEngineResult(Status.BUFFER_OVERFLOW, getHandshakeStatus(), 0, 0);
        }
        ByteBuffer[] scratch = SCRATCH.get();
        long source;
        if (src.isDirect()) {
            source = Buffer.address(src) + p; // read in place
        } else {
            ByteBuffer in = scratch[1].clear();
            int limit = src.limit();
            src.limit(p + record);
            in.put(src);
            src.limit(limit).position(p);
            source = Buffer.address(in);
        }
        ByteBuffer direct = length == 1 && dsts[offset].isDirect() ? dsts[offset] : null;
        ByteBuffer out = scratch[0];
        int produced = 0;
        int consumed;
        SSL.bioSetByteBuffer(state.bio, source, record, false);
        try {
            if (!handshakeFinished) {
                doHandshake();
            }
            if (handshakeFinished) {
                produced = direct != null
                        ? read(Buffer.address(direct) + direct.position(), direct.remaining())
                        : read(Buffer.address(out), (int) Math.min(out.capacity(), remaining(dsts, offset, length)));
            }
        } finally {
            consumed = record - SSL.bioLengthByteBuffer(state.bio);
            SSL.bioClearByteBuffer(state.bio);
            src.position(p + consumed);
        }
        if (direct != null) {
            direct.position(direct.position() + produced);
            return new SSLEngineResult(inboundDone ? Status.CLOSED : Status.OK, resultStatus(), consumed, produced);
        }
        out.clear().limit(produced);
        for (int i = offset; i < offset + length && out.hasRemaining(); i++) {
            int n = Math.min(out.remaining(), dsts[i].remaining());
            int l = out.limit();
            out.limit(out.position() + n);
            dsts[i].put(out);
            out.limit(l);
        }
        out.clear();
        return new SSLEngineResult(inboundDone ? Status.CLOSED : Status.OK, resultStatus(), consumed, produced);
    }

    /** SSL_read into {@code max} bytes at {@code address}: the plaintext length, 0 for a record without any. */
    private int read(long address, int max) throws SSLException {
        if (max == 0) {
            return 0;
        }
        int r = SSL.readFromSSL(state.ssl, address, max);
        if (r > 0) {
            return r;
        }
        int error = SSL.getError(state.ssl, r);
        if (error == SSL.SSL_ERROR_WANT_READ || error == SSL.SSL_ERROR_WANT_WRITE) {
            return 0; // a record without application data (a session ticket, a key update)
        }
        if (error == SSL.SSL_ERROR_ZERO_RETURN) {
            closeNotifyReceived = true;
            inboundDone = true;
            return 0;
        }
        String reason = SSL.getErrorString(SSL.getLastErrorNumber());
        SSL.clearError();
        throw new SSLException("SSL_read failed: " + reason);
    }

    // ---------------------------------------------------------------- closing

    @Override
    public void closeInbound() throws SSLException {
        if (inboundDone) {
            return;
        }
        inboundDone = true;
        if (handshakeStarted && !closeNotifyReceived) {
            throw new SSLException("inbound closed before receiving the peer's close_notify");
        }
    }

    @Override
    public boolean isInboundDone() {
        return inboundDone;
    }

    @Override
    public void closeOutbound() {
        outboundClosed = true;
    }

    @Override
    public boolean isOutboundDone() {
        return state.ssl == 0 || outboundDone();
    }

    // ---------------------------------------------------------------- settings and session

    @Override
    public Runnable getDelegatedTask() {
        return null; // the certificate check runs inside SSL_do_handshake
    }

    @Override
    public SSLSession getSession() {
        return session;
    }

    @Override
    public SSLSession getHandshakeSession() {
        return handshakeStarted && !handshakeFinished ? session : null;
    }

    @Override
    public String getApplicationProtocol() {
        if (!handshakeFinished) {
            return null;
        }
        String protocol = session.applicationProtocol();
        return protocol == null ? "" : protocol;
    }

    @Override
    public String getHandshakeApplicationProtocol() {
        return state.ssl == 0 ? null : SSL.getAlpnSelected(state.ssl);
    }

    @Override
    public SSLParameters getSSLParameters() {
        SSLParameters copy = new SSLParameters(getEnabledCipherSuites(), getEnabledProtocols());
        copy.setEndpointIdentificationAlgorithm(parameters.getEndpointIdentificationAlgorithm());
        copy.setApplicationProtocols(parameters.getApplicationProtocols());
        copy.setAlgorithmConstraints(parameters.getAlgorithmConstraints());
        return copy;
    }

    /** Keeps the endpoint identification and algorithm constraints; the rest is the context's. */
    @Override
    public void setSSLParameters(SSLParameters params) {
        SSLParameters kept = new SSLParameters();
        kept.setEndpointIdentificationAlgorithm(params.getEndpointIdentificationAlgorithm());
        kept.setAlgorithmConstraints(params.getAlgorithmConstraints());
        kept.setApplicationProtocols(parameters.getApplicationProtocols());
        parameters = kept;
    }

    @Override
    public String[] getSupportedCipherSuites() {
        return getEnabledCipherSuites();
    }

    @Override
    public String[] getEnabledCipherSuites() {
        if (state.ssl == 0) {
            return new String[0];
        }
        String[] names = SSL.getCiphers(state.ssl);
        return names == null ? new String[0]
                : List.of(names).stream().map(OpenSslSession::javaCipherName).toArray(String[]::new);
    }

    @Override
    public void setEnabledCipherSuites(String[] suites) {
        throw new UnsupportedOperationException("set cipher suites on the SslContextBuilder");
    }

    @Override
    public String[] getSupportedProtocols() {
        return new String[] {"TLSv1.3", "TLSv1.2"};
    }

    @Override
    public String[] getEnabledProtocols() {
        return getSupportedProtocols();
    }

    @Override
    public void setEnabledProtocols(String[] protocols) {
        throw new UnsupportedOperationException("set protocols on the SslContextBuilder");
    }

    @Override
    public void setUseClientMode(boolean mode) {
        if (mode != client) {
            throw new IllegalArgumentException("an OPENSSL engine's mode is fixed by its SslContext");
        }
    }

    @Override
    public boolean getUseClientMode() {
        return client;
    }

    @Override
    public void setNeedClientAuth(boolean need) {
        throw new UnsupportedOperationException("set client authentication on the SslContextBuilder");
    }

    @Override
    public boolean getNeedClientAuth() {
        return false;
    }

    @Override
    public void setWantClientAuth(boolean want) {
        throw new UnsupportedOperationException("set client authentication on the SslContextBuilder");
    }

    @Override
    public boolean getWantClientAuth() {
        return false;
    }

    @Override
    public void setEnableSessionCreation(boolean flag) {
        if (!flag) {
            throw new UnsupportedOperationException("OPENSSL engines always create sessions");
        }
    }

    @Override
    public boolean getEnableSessionCreation() {
        return true;
    }
}
