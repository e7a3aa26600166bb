package io.rill.handler.ssl;

import java.util.List;
import java.util.concurrent.Executor;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSessionContext;

import io.rill.buffer.ByteBufAllocator;

/**
 * An immutable TLS configuration, made by {@link SslContextBuilder}, that hands out one
 * {@link SSLEngine} (or a ready {@link SslHandler}) per connection. Sessions are cached here, so
 * one context should serve many connections: resumption only works between engines of the same
 * context.
 *
 * <p>Client engines verify the server's host name (endpoint identification {@code HTTPS},
 * RFC 6125) unless the builder turned it off; they must then be made with the peer's host, as
 * {@link #newHandler(ByteBufAllocator, String, int)} does, or the handshake fails.
 */
public final class SslContext implements AutoCloseable {

    /** The JDK's context, or null for OPENSSL. */
    private final SSLContext context;
    /** BoringSSL's context, or null for JDK. */
    private final OpenSslNativeContext openssl;
    private final boolean client;
    private final SslProvider provider;
    private final String[] protocols;
    private final String[] cipherSuites;
    private final List<String> applicationProtocols;
    private final ClientAuth clientAuth;
    /** "HTTPS" by default for clients; null when the builder turned verification off. */
    private final String endpointIdentification;

    SslContext(SSLContext context, OpenSslNativeContext openssl, boolean client, SslProvider provider,
            String[] protocols, String[] cipherSuites, List<String> applicationProtocols, ClientAuth clientAuth,
            String endpointIdentification) {
        this.context = context;
        this.openssl = openssl;
        this.client = client;
        this.provider = provider;
        this.protocols = protocols;
        this.cipherSuites = cipherSuites;
        this.applicationProtocols = List.copyOf(applicationProtocols);
        this.clientAuth = clientAuth;
        this.endpointIdentification = endpointIdentification;
    }

    /**
     * Whether engines from this context act as TLS clients.
     *
     * @return true for a context built with {@link SslContextBuilder#forClient()}
     */
    public boolean isClient() {
        return client;
    }

    /**
     * Whether engines from this context act as TLS servers.
     *
     * @return true for a context built with one of the {@code SslContextBuilder.forServer} methods
     */
    public boolean isServer() {
        return !client;
    }

    /**
     * The TLS implementation behind this context.
     *
     * @return JDK or OPENSSL
     */
    public SslProvider provider() {
        return provider;
    }

    /**
     * The ALPN protocols offered (client) or accepted in preference order (server); may be empty.
     *
     * @return an unmodifiable list, empty when ALPN is off
     */
    public List<String> applicationProtocols() {
        return applicationProtocols;
    }

    /**
     * The enabled protocol versions, e.g. TLSv1.3 and TLSv1.2.
     *
     * @return the protocol names, as {@link SSLEngine#setEnabledProtocols} takes them
     */
    public List<String> protocols() {
        return List.of(protocols);
    }

    /**
     * The enabled cipher suites, in preference order.
     *
     * @return the suite names
     */
    public List<String> cipherSuites() {
        return List.of(cipherSuites);
    }

    /**
     * Whether servers of this context ask clients for certificates.
     *
     * @return none, optional or required
     */
    public ClientAuth clientAuth() {
        return clientAuth;
    }

    /**
     * The endpoint identification algorithm clients apply ("HTTPS"), or null if verification is off.
     *
     * @return {@code "HTTPS"}, {@code "LDAPS"}, or null
     */
    public String endpointIdentificationAlgorithm() {
        return endpointIdentification;
    }

    /**
     * The session cache: its size and timeout, and the sessions it holds.
     *
     * @return the session context shared by the engines of this context
     */
    public SSLSessionContext sessionContext() {
        if (openssl != null) {
            return openssl.sessionContext();
        }
        return client ? context.getClientSessionContext() : context.getServerSessionContext();
    }

    /**
     * Frees the native context of the OPENSSL provider once the engines made from it are gone
     * too (they hold references of their own); nothing to do for JDK. Engines cannot be made
     * afterwards.
     */
    @Override
    public void close() {
        if (openssl != null) {
            openssl.closeOnce();
        }
    }

    /**
     * A new engine with no peer information (servers; clients then cannot verify a host name).
     *
     * @param alloc the channel's allocator; neither provider uses it today
     * @return a new engine in client or server mode, owned by the caller
     * @throws IllegalStateException if the context was closed
     */
    public SSLEngine newEngine(ByteBufAllocator alloc) {
        if (openssl != null) {
            return openssl.newEngine(null, -1, endpointIdentification);
        }
        return configure(context.createSSLEngine());
    }

    /**
     * A new engine for a connection to {@code peerHost}: clients send it as SNI (when it is a
     * DNS name), check the server's certificate against it, and resume sessions by it.
     *
     * @param alloc    the channel's allocator; neither provider uses it today
     * @param peerHost the peer's host name (or address literal)
     * @param peerPort the peer's port
     * @return a new engine in client or server mode, owned by the caller
     * @throws IllegalStateException if the context was closed
     */
    public SSLEngine newEngine(ByteBufAllocator alloc, String peerHost, int peerPort) {
        if (openssl != null) {
            return openssl.newEngine(peerHost, peerPort, endpointIdentification);
        }
        return configure(context.createSSLEngine(peerHost, peerPort));
    }

    /**
     * A handler over a new engine with no peer information: what a server needs.
     *
     * @param alloc the channel's allocator
     * @return a new handler, for one channel
     */
    public SslHandler newHandler(ByteBufAllocator alloc) {
        return new SslHandler(newEngine(alloc));
    }

    /**
     * A handler over a new engine for a connection to {@code peerHost}: what a client needs to check
     * the server's host name and to resume sessions.
     *
     * @param alloc    the channel's allocator
     * @param peerHost the server's host name, sent as SNI and checked against its certificate
     * @param peerPort the server's port
     * @return a new handler, for one channel
     */
    public SslHandler newHandler(ByteBufAllocator alloc, String peerHost, int peerPort) {
        return new SslHandler(newEngine(alloc, peerHost, peerPort));
    }

    /**
     * A handler whose engine runs its delegated tasks on {@code delegatedTaskExecutor}.
     *
     * @param alloc                 the channel's allocator
     * @param peerHost              the server's host name, sent as SNI and checked against its certificate
     * @param peerPort              the server's port
     * @param delegatedTaskExecutor where the engine's slow tasks run; null runs them on the event loop
     * @return a new handler, for one channel
     */
    public SslHandler newHandler(ByteBufAllocator alloc, String peerHost, int peerPort, Executor delegatedTaskExecutor) {
        return new SslHandler(newEngine(alloc, peerHost, peerPort), false, delegatedTaskExecutor);
    }

    /**
     * A handler (with no peer information) whose engine runs its delegated tasks on {@code
     * delegatedTaskExecutor}.
     *
     * @param alloc                 the channel's allocator
     * @param delegatedTaskExecutor where the engine's slow tasks run; null runs them on the event loop
     * @return a new handler, for one channel
     */
    public SslHandler newHandler(ByteBufAllocator alloc, Executor delegatedTaskExecutor) {
        return new SslHandler(newEngine(alloc), false, delegatedTaskExecutor);
    }

    /**
     * A handler whose first write passes unencrypted: the reply that accepts a STARTTLS request.
     *
     * @param alloc    the channel's allocator
     * @param startTls true to let the first write pass unencrypted
     * @return a new handler, for one channel
     */
    public SslHandler newHandler(ByteBufAllocator alloc, boolean startTls) {
        return new SslHandler(newEngine(alloc), startTls);
    }

    private SSLEngine configure(SSLEngine engine) {
        engine.setUseClientMode(client);
        engine.setEnabledProtocols(protocols);
        engine.setEnabledCipherSuites(cipherSuites);
        SSLParameters params = engine.getSSLParameters();
        if (!applicationProtocols.isEmpty()) {
            params.setApplicationProtocols(applicationProtocols.toArray(new String[0]));
        }
        if (client) {
            params.setEndpointIdentificationAlgorithm(endpointIdentification);
        } else {
            params.setUseCipherSuitesOrder(true);
            // Each setter clears the other flag, so exactly one is called.
            switch (clientAuth) {
                case REQUIRE -> params.setNeedClientAuth(true);
                case OPTIONAL -> params.setWantClientAuth(true);
                default -> params.setNeedClientAuth(false);
            }
        }
        engine.setSSLParameters(params);
        return engine;
    }

    @Override
    public String toString() {
        return "SslContext(" + (client ? "client" : "server") + ", " + provider + ", " + List.of(protocols)
                + (applicationProtocols.isEmpty() ? "" : ", alpn=" + applicationProtocols) + ")";
    }
}
