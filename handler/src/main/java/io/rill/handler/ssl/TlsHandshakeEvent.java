package io.rill.handler.ssl;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * JFR event {@code io.rill.TlsHandshake}: an {@link SslHandler}'s handshake ended, well or badly.
 * Slow handshakes (a certificate check, an RSA key) and failing ones (an old client, a wrong
 * certificate) show up here with what was negotiated and which TLS implementation did it.
 */
@Name("io.rill.TlsHandshake")
@Label("TLS Handshake")
@Category("Rill")
@Description("A TLS handshake finished or failed")
@StackTrace(false)
final class TlsHandshakeEvent extends jdk.jfr.Event {

    /** Asked first, so that no event object is made per connection while no recording wants one. */
    private static final TlsHandshakeEvent PROBE = new TlsHandshakeEvent();

    @Label("Protocol")
    @Description("Negotiated TLS version, e.g. TLSv1.3; NONE when the handshake failed early")
    String protocol;

    @Label("Cipher Suite")
    String cipherSuite;

    @Label("Provider")
    @Description("JDK or OPENSSL")
    String provider;

    @Label("Client Mode")
    boolean clientMode;

    @Label("Handshake Duration")
    @Timespan(Timespan.NANOSECONDS)
    long handshakeDuration;

    @Label("Success")
    boolean success;

    @Label("Failure")
    @Description("Why the handshake failed; null when it succeeded")
    String failure;

    /**
     * Commits one event if a recording wants it. {@code startNanos} is when the handshake began
     * ({@link System#nanoTime()}); {@code cause} is null on success.
     */
    static void commit(SSLEngine engine, boolean nativeEngine, long startNanos, Throwable cause) {
        if (!PROBE.isEnabled()) {
            return;
        }
        TlsHandshakeEvent event = new TlsHandshakeEvent();
        if (event.shouldCommit()) {
            SSLSession session = engine.getSession();
            event.protocol = session.getProtocol();
            event.cipherSuite = session.getCipherSuite();
            event.provider = (nativeEngine ? SslProvider.OPENSSL : SslProvider.JDK).name();
            event.clientMode = engine.getUseClientMode();
            event.handshakeDuration = startNanos == 0 ? 0 : System.nanoTime() - startNanos;
            event.success = cause == null;
            event.failure = cause == null ? null : cause.toString();
            event.commit();
        }
    }
}
