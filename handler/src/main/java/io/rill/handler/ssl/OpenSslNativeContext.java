package io.rill.handler.ssl;

import java.io.ByteArrayInputStream;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.X509ExtendedTrustManager;

import io.netty.internal.tcnative.Buffer;
import io.netty.internal.tcnative.CertificateVerifier;
import io.netty.internal.tcnative.SSL;
import io.netty.internal.tcnative.SSLContext;
import io.rill.util.InternalLogger;

/**
 * One BoringSSL {@code SSL_CTX}: protocols, cipher suites, key material, ALPN, session cache and
 * the certificate check, shared by the {@link OpenSslEngine}s made from it.
 *
 * <p>Reference counted: the {@link SslContext} holds one reference and each live engine one
 * more, so the native context is freed as soon as the last of them lets go, whichever that is.
 *
 * <p>Certificates are checked in Java: BoringSSL hands the peer's chain to the verifier below,
 * which asks the context's {@link X509ExtendedTrustManager} with the engine, so trust roots,
 * expiry and the client's host name check (endpoint identification) are the JDK's, exactly as
 * with the JDK provider.
 */
final class OpenSslNativeContext {

    /** Room for handshake output that does not fit the caller's buffer (a long certificate chain). */
    static final int NON_APPLICATION_BUFFER_SIZE = 64 * 1024;

    final long ctx;
    /** {@code EVP_PKEY*} and certificate chain, parsed once; 0 when this side has no key. */
    private long nativeKey;
    private long nativeChain;
    final boolean server;
    final X509ExtendedTrustManager trustManager;
    final List<String> applicationProtocols;
    /** Engines by their {@code SSL*}, for the verifier callback; weakly, so a dropped engine can be cleaned. */
    final Map<Long, WeakReference<OpenSslEngine>> engines = new ConcurrentHashMap<>();
    /** Sessions a client resumes, by peer; null for a server (BoringSSL's own cache serves it). */
    final OpenSslClientSessionCache clientSessions;
    /** OCSP stapling was enabled: a client asks for a response, a server's engines may staple one. */
    private volatile boolean ocsp;
    private final AtomicInteger refCnt = new AtomicInteger(1);
    private final AtomicBoolean closed = new AtomicBoolean();

    OpenSslNativeContext(boolean server, String[] protocolNames, String cipherSuites, PrivateKey key,
            X509Certificate[] keyCertChain, X509ExtendedTrustManager trustManager, ClientAuth clientAuth,
            List<String> applicationProtocols, long sessionCacheSize, long sessionTimeoutSeconds) throws SSLException {
        this.server = server;
        this.trustManager = trustManager;
        this.applicationProtocols = List.copyOf(applicationProtocols);
        this.clientSessions = server ? null : new OpenSslClientSessionCache(this);
        int protocols = protocolFlags(protocolNames);
        try {
            ctx = SSLContext.make(protocols, server ? SSL.SSL_MODE_SERVER : SSL.SSL_MODE_CLIENT);
        } catch (Exception e) {
            throw new SSLException("cannot create a BoringSSL context: " + e.getMessage(), e);
        }
        OpenSsl.CONTEXTS_ALIVE.incrementAndGet();
        try {
            configure(protocols, cipherSuites, key, keyCertChain, clientAuth, sessionCacheSize, sessionTimeoutSeconds);
        } catch (SSLException | RuntimeException e) {
            release();
            throw e;
        }
    }

    private static int protocolFlags(String[] names) {
        int flags = 0;
        for (String name : names) {
            switch (name) {
                case "TLSv1.2" -> flags |= SSL.SSL_PROTOCOL_TLSV1_2;
                case "TLSv1.3" -> flags |= SSL.SSL_PROTOCOL_TLSV1_3;
                default -> throw new IllegalArgumentException("unsupported protocol(s) for OPENSSL: [" + name + "]");
            }
        }
        return flags;
    }

    private void configure(int protocols, String cipherSuites, PrivateKey key, X509Certificate[] keyCertChain,
            ClientAuth clientAuth, long sessionCacheSize, long sessionTimeoutSeconds) throws SSLException {
        SSLContext.setOptions(ctx, SSL.SSL_OP_NO_COMPRESSION | SSL.SSL_OP_CIPHER_SERVER_PREFERENCE
                | SSL.SSL_OP_NO_SSLv3 | SSL.SSL_OP_NO_TLSv1 | SSL.SSL_OP_NO_TLSv1_1
                | ((protocols & SSL.SSL_PROTOCOL_TLSV1_2) == 0 ? SSL.SSL_OP_NO_TLSv1_2 : 0)
                | ((protocols & SSL.SSL_PROTOCOL_TLSV1_3) == 0 ? SSL.SSL_OP_NO_TLSv1_3 : 0));
        SSLContext.setMode(ctx, SSLContext.getMode(ctx) | SSL.SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
        if (cipherSuites != null) {
            try {
                SSLContext.setCipherSuite(ctx, cipherSuites, false);
            } catch (Exception e) {
                throw new IllegalArgumentException("unsupported cipher suite(s) for OPENSSL: [" + cipherSuites + "]", e);
            }
        }
        if (key != null) {
            parseKeyMaterial(key, keyCertChain);
        }
        int verify = !server ? SSL.SSL_CVERIFY_REQUIRED
                : clientAuth == ClientAuth.REQUIRE ? SSL.SSL_CVERIFY_REQUIRED
                : clientAuth == ClientAuth.OPTIONAL ? SSL.SSL_CVERIFY_OPTIONAL : SSL.SSL_CVERIFY_NONE;
        SSLContext.setVerify(ctx, verify, 10);
        SSLContext.setCertVerifyCallback(ctx, new Verifier());
        if (!applicationProtocols.isEmpty()) {
            SSLContext.setAlpnProtos(ctx, applicationProtocols.toArray(new String[0]),
                    SSL.SSL_SELECTOR_FAILURE_NO_ADVERTISE);
        }
        if (server) {
            // Sessions are resumable only within one context: its identity is its address.
            SSLContext.setSessionIdContext(ctx, Long.toHexString(ctx).getBytes(StandardCharsets.US_ASCII));
        } else {
            SSLContext.setSSLSessionCache(ctx, clientSessions);
        }
        if (sessionCacheSize >= 0) {
            SSLContext.setSessionCacheSize(ctx, sessionCacheSize);
        }
        if (sessionTimeoutSeconds >= 0) {
            SSLContext.setSessionCacheTimeout(ctx, sessionTimeoutSeconds);
        }
        setSessionCacheMode();
    }

    /**
     * Servers cache in BoringSSL; clients get each new session handed to {@link #clientSessions}
     * and BoringSSL keeps none. Called after every cache size change: tcnative's size setter
     * also switches the mode to server caching.
     */
    private void setSessionCacheMode() {
        SSLContext.setSessionCacheMode(ctx, server ? SSL.SSL_SESS_CACHE_SERVER
                : SSL.SSL_SESS_CACHE_CLIENT | SSL.SSL_SESS_CACHE_NO_INTERNAL_STORE);
    }

    /**
     * Parses key and chain once, as PEM in memory BIOs (BoringSSL's parsers, our encoding); each
     * engine's {@code SSL} then points at them.
     */
    private void parseKeyMaterial(PrivateKey key, X509Certificate[] chain) throws SSLException {
        StringBuilder chainPem = new StringBuilder();
        try {
            for (X509Certificate cert : chain) {
                chainPem.append(pem("CERTIFICATE", cert.getEncoded()));
            }
        } catch (CertificateException e) {
            throw new SSLException("cannot encode the certificate chain", e);
        }
        long keyBio = 0;
        long chainBio = 0;
        try {
            keyBio = memoryBio(pem("PRIVATE KEY", key.getEncoded()));
            chainBio = memoryBio(chainPem.toString());
            nativeKey = SSL.parsePrivateKey(keyBio, null);
            nativeChain = SSL.parseX509Chain(chainBio);
        } catch (SSLException e) {
            throw e;
        } catch (Exception e) {
            throw new SSLException("BoringSSL refused the key material: " + e.getMessage(), e);
        } finally {
            freeBio(keyBio);
            freeBio(chainBio);
        }
    }

    /** Points a new engine's {@code SSL} at this context's key material, if it has any. */
    void applyKeyMaterial(long ssl) throws Exception {
        if (nativeKey != 0) {
            SSL.setKeyMaterial(ssl, nativeChain, nativeKey);
        }
    }

    private static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }

    private static long memoryBio(String text) throws Exception {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes);
        long bio = SSL.newMemBIO();
        if (SSL.bioWrite(bio, Buffer.address(direct), bytes.length) != bytes.length) {
            SSL.freeBIO(bio);
            throw new SSLException("could not write " + bytes.length + " bytes to a memory BIO");
        }
        return bio;
    }

    private static void freeBio(long bio) {
        if (bio != 0) {
            SSL.freeBIO(bio);
        }
    }

    /** Sends every secret BoringSSL derives to {@code sink} as an NSS key log line (debugging). */
    void keyLog(Consumer<String> sink) throws SSLException {
        boolean set = SSLContext.setKeyLogCallback(ctx, (ssl, line) -> {
            try {
                sink.accept(new String(line, StandardCharsets.US_ASCII));
            } catch (RuntimeException e) {
                // Never let a debugging aid break the handshake that called it.
                InternalLogger.get(OpenSslNativeContext.class).warn("the key log sink failed: {}", e.toString());
            }
        });
        if (!set) {
            throw new SSLException("BoringSSL refused the key log callback");
        }
    }

    /**
     * Turns on OCSP stapling (RFC 6066 §8) for the engines made from now on: with BoringSSL the
     * call below is a no-op, and each client engine asks for the status itself.
     */
    void enableOcsp() {
        SSLContext.enableOcsp(ctx, !server);
        ocsp = true;
    }

    boolean ocspEnabled() {
        return ocsp;
    }

    /** The live engine of {@code ssl}, or null. */
    OpenSslEngine engine(long ssl) {
        WeakReference<OpenSslEngine> ref = engines.get(ssl);
        return ref == null ? null : ref.get();
    }

    /** A new engine holding a reference to this context until it is freed. */
    SSLEngine newEngine(String peerHost, int peerPort, String endpointIdentification) {
        return new OpenSslEngine(this, peerHost, peerPort, endpointIdentification);
    }

    /** Drops the SslContext's own reference, once. */
    void closeOnce() {
        if (closed.compareAndSet(false, true)) {
            release();
        }
    }

    /** The session cache settings, as the JDK's interface shows them. */
    SSLSessionContext sessionContext() {
        return new SSLSessionContext() {
            @Override
            public SSLSession getSession(byte[] sessionId) {
                return null;
            }

            @Override
            public Enumeration<byte[]> getIds() {
                return Collections.emptyEnumeration();
            }

            @Override
            public void setSessionTimeout(int seconds) {
                SSLContext.setSessionCacheTimeout(ctx, seconds);
            }

            @Override
            public int getSessionTimeout() {
                return (int) SSLContext.getSessionCacheTimeout(ctx);
            }

            @Override
            public void setSessionCacheSize(int size) {
                SSLContext.setSessionCacheSize(ctx, size);
                setSessionCacheMode();
            }

            @Override
            public int getSessionCacheSize() {
                return (int) SSLContext.getSessionCacheSize(ctx);
            }
        };
    }

    void retain() {
        if (refCnt.getAndUpdate(n -> n == 0 ? 0 : n + 1) == 0) {
            throw new IllegalStateException("the BoringSSL context was already freed");
        }
    }

    void release() {
        if (refCnt.decrementAndGet() == 0) {
            if (nativeKey != 0) {
                SSL.freePrivateKey(nativeKey);
            }
            if (nativeChain != 0) {
                SSL.freeX509Chain(nativeChain);
            }
            if (clientSessions != null) {
                clientSessions.clear();
            }
            SSLContext.free(ctx);
            OpenSsl.CONTEXTS_ALIVE.decrementAndGet();
        }
    }

    /** BoringSSL's certificate callback, answered by the Java trust manager. */
    private final class Verifier extends CertificateVerifier {
        @Override
        public int verify(long ssl, byte[][] chainDer, String authAlgorithm) {
            OpenSslEngine engine = engine(ssl);
            if (engine == null) {
                return X509_V_ERR_UNSPECIFIED;
            }
            try {
                X509Certificate[] chain = decode(chainDer);
                engine.beforeVerify(chain);
                String authType = authAlgorithm == null || authAlgorithm.isEmpty() ? "UNKNOWN" : authAlgorithm;
                if (server) {
                    trustManager.checkClientTrusted(chain, authType, engine);
                } else {
                    trustManager.checkServerTrusted(chain, authType, engine);
                }
                return X509_V_OK;
            } catch (Throwable t) {
                engine.verificationFailed(t);
                if (t instanceof CertificateExpiredException) {
                    return X509_V_ERR_CERT_HAS_EXPIRED;
                }
                if (t instanceof CertificateNotYetValidException) {
                    return X509_V_ERR_CERT_NOT_YET_VALID;
                }
                return X509_V_ERR_CERT_REJECTED;
            }
        }

        private X509Certificate[] decode(byte[][] chainDer) throws CertificateException {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            X509Certificate[] chain = new X509Certificate[chainDer.length];
            for (int i = 0; i < chain.length; i++) {
                chain[i] = (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(chainDer[i]));
            }
            return chain;
        }
    }
}
