package io.rill.handler.ssl;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509KeyManager;

/**
 * Builds an {@link SslContext}. Start with {@link #forServer} (a certificate chain and its key are
 * required) or {@link #forClient()}, set what differs from the defaults, then {@link #build()}.
 *
 * <p>Defaults: TLS 1.3 and 1.2 only; the provider's default cipher suites for those; trust in
 * the JDK's CA roots; no client authentication; no ALPN; for clients, host name verification
 * (endpoint identification {@code HTTPS}); and {@link SslProvider#defaultProvider()} (OPENSSL
 * when netty-tcnative-boringssl-static is present, JDK otherwise). Key material is read from PEM
 * (PKCS#8, PKCS#1 RSA, SEC1 EC, encrypted PKCS#8) or taken from a {@link KeyManagerFactory}.
 *
 * <p>With OPENSSL, trust decisions are still made by a Java {@code X509ExtendedTrustManager}
 * (so roots, expiry and host names are checked exactly as with JDK); TLS 1.3 cipher suites are
 * BoringSSL's fixed set; a context holds native memory, freed by {@link SslContext#close()} once
 * its engines are gone.
 */
public final class SslContextBuilder {

    /** TLS 1.0 and 1.1 are deprecated (RFC 8996) and SSL is broken: never enabled by default. */
    private static final String[] DEFAULT_PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final boolean server;
    private X509Certificate[] keyCertChain;
    private PrivateKey key;
    private KeyManagerFactory keyManagerFactory;
    private X509Certificate[] trustCertificates;
    private TrustManagerFactory trustManagerFactory;
    private String[] protocols = DEFAULT_PROTOCOLS;
    private List<String> cipherSuites;
    private List<String> applicationProtocols = List.of();
    private long sessionCacheSize = -1;
    private long sessionTimeoutSeconds = -1;
    private ClientAuth clientAuth = ClientAuth.NONE;
    private String endpointIdentification = "HTTPS";
    private SslProvider provider;
    /** Debugging only: receives TLS secrets; null (the default) exports nothing. */
    private Consumer<String> keyLog;
    /** OCSP stapling (RFC 6066 §8), OPENSSL only. */
    private boolean ocsp;

    private SslContextBuilder(boolean server) {
        this.server = server;
    }

    /**
     * A client: trusts the JDK's CA roots and checks the server's host name unless told otherwise.
     *
     * @return a new builder
     */
    public static SslContextBuilder forClient() {
        return new SslContextBuilder(false);
    }

    /**
     * A server presenting the PEM certificate chain (leaf first) with its PEM private key.
     *
     * @param keyCertChainPem a PEM file with the certificate chain, leaf first
     * @param keyPem          a PEM file with the unencrypted private key of the leaf
     * @return a new builder
     * @throws SSLException if a file cannot be read or holds no usable key material
     */
    public static SslContextBuilder forServer(File keyCertChainPem, File keyPem) throws SSLException {
        return new SslContextBuilder(true).keyManager(keyCertChainPem, keyPem, null);
    }

    /**
     * Like {@link #forServer(File, File)} with a password for an ENCRYPTED PRIVATE KEY.
     *
     * @param keyCertChainPem a PEM file with the certificate chain, leaf first
     * @param keyPem          a PEM file with the private key of the leaf
     * @param keyPassword     the key's password; null if it is not encrypted
     * @return a new builder
     * @throws SSLException if a file cannot be read, holds no usable key material, or the password is wrong
     */
    public static SslContextBuilder forServer(File keyCertChainPem, File keyPem, String keyPassword)
            throws SSLException {
        return new SslContextBuilder(true).keyManager(keyCertChainPem, keyPem, keyPassword);
    }

    /**
     * A server presenting the PEM certificate chain (leaf first) with its unencrypted PEM private key,
     * read from streams (which are read to the end, not closed).
     *
     * @param keyCertChainPem the certificate chain in PEM, leaf first
     * @param keyPem          the unencrypted private key of the leaf in PEM
     * @return a new builder
     * @throws SSLException if the streams cannot be read or hold no usable key material
     */
    public static SslContextBuilder forServer(InputStream keyCertChainPem, InputStream keyPem) throws SSLException {
        return new SslContextBuilder(true).keyManager(keyCertChainPem, keyPem, null);
    }

    /**
     * A server presenting {@code keyCertChain} with its private key.
     *
     * @param key          the private key of the leaf certificate
     * @param keyCertChain the certificate chain, leaf first; at least one
     * @return a new builder
     * @throws IllegalArgumentException if the key or the chain is missing
     */
    public static SslContextBuilder forServer(PrivateKey key, X509Certificate... keyCertChain) {
        return new SslContextBuilder(true).keyManager(key, keyCertChain);
    }

    /**
     * A server whose identity comes from {@code keyManagerFactory}.
     *
     * @param keyManagerFactory supplies the certificate chain and key; not null
     * @return a new builder
     */
    public static SslContextBuilder forServer(KeyManagerFactory keyManagerFactory) {
        return new SslContextBuilder(true).keyManager(keyManagerFactory);
    }

    /**
     * The certificate and key this side presents (a server's identity, or a client's for mutual TLS).
     *
     * @param keyCertChainPem a PEM file with the certificate chain, leaf first
     * @param keyPem          a PEM file with the private key of the leaf
     * @param keyPassword     the key's password; null if it is not encrypted
     * @return this builder
     * @throws SSLException if a file cannot be read, holds no usable key material, or the password is wrong
     */
    public SslContextBuilder keyManager(File keyCertChainPem, File keyPem, String keyPassword) throws SSLException {
        try (InputStream chain = Files.newInputStream(keyCertChainPem.toPath());
                InputStream key = Files.newInputStream(keyPem.toPath())) {
            return keyManager(chain, key, keyPassword);
        } catch (IOException e) {
            throw new SSLException("cannot read " + keyCertChainPem + " or " + keyPem + ": " + e.getMessage(), e);
        }
    }

    /**
     * Like {@link #keyManager(File, File, String)}, reading PEM from streams (read to the end, not closed).
     *
     * @param keyCertChainPem the certificate chain in PEM, leaf first
     * @param keyPem          the private key of the leaf in PEM
     * @param keyPassword     the key's password; null if it is not encrypted
     * @return this builder
     * @throws SSLException if the streams cannot be read, hold no usable key material, or the password is
     *                      wrong
     */
    public SslContextBuilder keyManager(InputStream keyCertChainPem, InputStream keyPem, String keyPassword)
            throws SSLException {
        try {
            X509Certificate[] chain = PemReader.readCertificates(keyCertChainPem);
            PrivateKey pk = PemReader.readPrivateKey(keyPem, keyPassword == null ? null : keyPassword.toCharArray());
            return keyManager(pk, chain);
        } catch (GeneralSecurityException e) {
            throw new SSLException("bad key material: " + e.getMessage(), e);
        }
    }

    /**
     * The certificate chain and key this side presents; replaces a key manager factory set before.
     *
     * @param key          the private key of the leaf certificate
     * @param keyCertChain the certificate chain, leaf first; at least one (the array is copied)
     * @return this builder
     * @throws IllegalArgumentException if the key or the chain is missing
     */
    public SslContextBuilder keyManager(PrivateKey key, X509Certificate... keyCertChain) {
        if (key == null || keyCertChain == null || keyCertChain.length == 0) {
            throw new IllegalArgumentException("a private key and at least one certificate are required");
        }
        this.key = key;
        this.keyCertChain = keyCertChain.clone();
        this.keyManagerFactory = null;
        return this;
    }

    /**
     * This side's identity from {@code keyManagerFactory}; replaces a key and chain set before.
     *
     * @param keyManagerFactory supplies the certificate chain and key; not null
     * @return this builder
     */
    public SslContextBuilder keyManager(KeyManagerFactory keyManagerFactory) {
        this.keyManagerFactory = requireNonNull(keyManagerFactory, "keyManagerFactory");
        this.key = null;
        this.keyCertChain = null;
        return this;
    }

    /**
     * Trust exactly the PEM certificates of {@code trustCertCollection} as roots.
     *
     * @param trustCertCollectionPem a PEM file with the trusted root certificates
     * @return this builder
     * @throws SSLException if the file cannot be read or holds no certificate
     */
    public SslContextBuilder trustManager(File trustCertCollectionPem) throws SSLException {
        try (InputStream in = Files.newInputStream(trustCertCollectionPem.toPath())) {
            return trustManager(in);
        } catch (IOException e) {
            throw new SSLException("cannot read " + trustCertCollectionPem + ": " + e.getMessage(), e);
        }
    }

    /**
     * Trust exactly the PEM certificates read from {@code trustCertCollectionPem} (read to the end,
     * not closed) as roots.
     *
     * @param trustCertCollectionPem the trusted root certificates in PEM
     * @return this builder
     * @throws SSLException if the stream cannot be read or holds no certificate
     */
    public SslContextBuilder trustManager(InputStream trustCertCollectionPem) throws SSLException {
        try {
            return trustManager(PemReader.readCertificates(trustCertCollectionPem));
        } catch (GeneralSecurityException e) {
            throw new SSLException("bad trust certificates: " + e.getMessage(), e);
        }
    }

    /**
     * Trust exactly {@code roots}; replaces a trust manager factory set before.
     *
     * @param roots the trusted root certificates (the array is copied)
     * @return this builder
     */
    public SslContextBuilder trustManager(X509Certificate... roots) {
        this.trustCertificates = roots.clone();
        this.trustManagerFactory = null;
        return this;
    }

    /**
     * Trust decisions by {@code factory} (e.g. {@code InsecureTrustManagerFactory.INSTANCE} in tests).
     *
     * @param factory makes the trust managers; not null
     * @return this builder
     */
    public SslContextBuilder trustManager(TrustManagerFactory factory) {
        this.trustManagerFactory = requireNonNull(factory, "factory");
        this.trustCertificates = null;
        return this;
    }

    /**
     * The protocol versions to enable, e.g. "TLSv1.3", "TLSv1.2".
     *
     * @param protocols the protocol names of {@link javax.net.ssl.SSLEngine#setEnabledProtocols}
     * @return this builder
     */
    public SslContextBuilder protocols(String... protocols) {
        if (protocols.length == 0) {
            throw new IllegalArgumentException("at least one protocol is required");
        }
        this.protocols = protocols.clone();
        return this;
    }

    /**
     * The cipher suites to enable, in preference order; null restores the JDK's defaults.
     *
     * @param cipherSuites the suite names, e.g. {@code TLS_AES_128_GCM_SHA256}; null for the defaults
     * @return this builder
     */
    public SslContextBuilder ciphers(Iterable<String> cipherSuites) {
        if (cipherSuites == null) {
            this.cipherSuites = null;
        } else {
            List<String> list = new ArrayList<>();
            cipherSuites.forEach(list::add);
            this.cipherSuites = list;
        }
        return this;
    }

    /**
     * ALPN (RFC 7301): offered by a client, chosen from by a server in this preference order.
     *
     * @param protocols the protocol names, e.g. {@code "h2", "http/1.1"}; none turns ALPN off
     * @return this builder
     */
    public SslContextBuilder applicationProtocols(String... protocols) {
        this.applicationProtocols = List.of(protocols);
        return this;
    }

    /**
     * How many sessions the cache keeps (0: no limit); the provider's default when unset. An
     * OPENSSL client keeps one session per peer ({@code host:port} of
     * {@link SslContext#newHandler(io.rill.buffer.ByteBufAllocator, String, int)}), so this bounds
     * the peers it can resume with.
     *
     * @param size the number of sessions kept; 0 for no limit
     * @return this builder
     */
    public SslContextBuilder sessionCacheSize(long size) {
        this.sessionCacheSize = requireNonNegative(size, "sessionCacheSize");
        return this;
    }

    /**
     * How long a cached session can be resumed, in seconds (0: no limit); the JDK's default when unset.
     *
     * @param seconds how long a session can be resumed; 0 for no limit
     * @return this builder
     */
    public SslContextBuilder sessionTimeout(long seconds) {
        this.sessionTimeoutSeconds = requireNonNegative(seconds, "sessionTimeout");
        return this;
    }

    /**
     * Whether a server asks clients for certificates.
     *
     * @param clientAuth none, optional or required; not null
     * @return this builder
     */
    public SslContextBuilder clientAuth(ClientAuth clientAuth) {
        this.clientAuth = requireNonNull(clientAuth, "clientAuth");
        return this;
    }

    /**
     * The client's host name check: "HTTPS" (the default, RFC 2818/6125) or "LDAPS"; null turns
     * it off, which lets any certificate the trust roots accept stand for any host.
     *
     * @param algorithm {@code "HTTPS"}, {@code "LDAPS"}, or null to turn the host name check off
     * @return this builder
     */
    public SslContextBuilder endpointIdentificationAlgorithm(String algorithm) {
        this.endpointIdentification = algorithm;
        return this;
    }

    /**
     * The TLS implementation; null (the default) for {@link SslProvider#defaultProvider()}.
     *
     * @param provider JDK or OPENSSL, or null
     * @return this builder
     */
    public SslContextBuilder sslProvider(SslProvider provider) {
        this.provider = provider;
        return this;
    }

    /**
     * <b>For debugging only</b>: hands {@code sink} one line per TLS secret of every connection
     * of the context, in the NSS key log format that Wireshark reads (the {@code SSLKEYLOGFILE}
     * convention): {@code CLIENT_RANDOM <hex> <hex>} for TLS 1.2, {@code CLIENT_HANDSHAKE_TRAFFIC_SECRET},
     * {@code SERVER_TRAFFIC_SECRET_0} ... for TLS 1.3. Anyone holding these lines can decrypt the
     * traffic, so never enable it in production. Off by default; null turns it off.
     *
     * <p>{@link SslProvider#OPENSSL} only: the JDK's engine does not export its secrets, so
     * {@link #build()} throws {@link UnsupportedOperationException} for JDK. The sink runs on the
     * event loop during handshakes: keep it quick; what it throws is logged and ignored.
     *
     * @param sink receives the key log lines; null turns it off
     * @return this builder
     */
    public SslContextBuilder keyLog(Consumer<String> sink) {
        this.keyLog = sink;
        return this;
    }

    /**
     * {@link #keyLog(Consumer)} appending each line to {@code file} (created if absent); debugging only.
     *
     * @param file the key log file, appended to
     * @return this builder
     */
    public SslContextBuilder keyLogFile(Path file) {
        requireNonNull(file, "file");
        return keyLog(line -> appendLine(file, line));
    }

    private static synchronized void appendLine(Path file, String line) {
        try {
            Files.writeString(file, line + "\n", StandardCharsets.US_ASCII, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the key log " + file, e);
        }
    }

    /**
     * OCSP stapling (RFC 6066 §8), off by default. A client asks servers for the OCSP response
     * (RFC 6960) of their certificate and reads it with {@link SslHandler#ocspResponse()} after
     * the handshake (checking it is the application's job: the trust manager does not); a server
     * staples what each handler is given by {@link SslHandler#setOcspResponse(byte[])}.
     *
     * <p>{@link SslProvider#OPENSSL} only: {@link #build()} throws
     * {@link UnsupportedOperationException} for JDK, whose stapling is configured by JDK-wide
     * system properties instead.
     *
     * @param enable true to ask for (client) or staple (server) OCSP responses
     * @return this builder
     */
    public SslContextBuilder enableOcsp(boolean enable) {
        this.ocsp = enable;
        return this;
    }

    /**
     * Builds the context from what was set. The builder can be reused afterwards; the context is
     * independent of it, thread-safe, and holds native memory under OPENSSL until it is closed.
     *
     * @return a new context, to be closed by its owner once its handlers are gone
     * @throws SSLException if the provider is unavailable or the key material or settings are rejected
     * @throws IllegalStateException for a server without a certificate chain and key
     * @throws UnsupportedOperationException if {@link #keyLog} or {@link #enableOcsp} is set for JDK
     */
    public SslContext build() throws SSLException {
        if (server && keyManagerFactory == null && key == null) {
            throw new IllegalStateException("a server needs a certificate chain and key");
        }
        SslProvider chosen = provider != null ? provider : SslProvider.defaultProvider();
        if (!chosen.isAvailable()) {
            throw new SSLException("SslProvider." + chosen + " is not available: " + chosen.unavailabilityCause());
        }
        if (keyLog != null && chosen != SslProvider.OPENSSL) {
            throw new UnsupportedOperationException("keyLog needs SslProvider.OPENSSL: the JDK's SSLEngine does not "
                    + "export its TLS secrets (without reaching into JDK internals)");
        }
        if (ocsp && chosen != SslProvider.OPENSSL) {
            throw new UnsupportedOperationException("enableOcsp needs SslProvider.OPENSSL: the JDK's SSLEngine "
                    + "takes OCSP stapling from JDK-wide system properties, not per context");
        }
        try {
            if (chosen == SslProvider.OPENSSL) {
                return buildOpenSsl();
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers(), trustManagers(), null);
            var sessions = server ? context.getServerSessionContext() : context.getClientSessionContext();
            if (sessionCacheSize >= 0) {
                sessions.setSessionCacheSize((int) Math.min(Integer.MAX_VALUE, sessionCacheSize));
            }
            if (sessionTimeoutSeconds >= 0) {
                sessions.setSessionTimeout((int) Math.min(Integer.MAX_VALUE, sessionTimeoutSeconds));
            }
            SSLEngine probe = context.createSSLEngine();
            String[] enabledProtocols = checkSupported("protocol", protocols, probe.getSupportedProtocols());
            String[] suites = cipherSuites == null ? probe.getEnabledCipherSuites()
                    : checkSupported("cipher suite", cipherSuites.toArray(new String[0]),
                            probe.getSupportedCipherSuites());
            return new SslContext(context, null, !server, chosen, enabledProtocols, suites, applicationProtocols,
                    clientAuth, server ? null : endpointIdentification);
        } catch (GeneralSecurityException | IOException e) {
            throw new SSLException("cannot build the SslContext: " + e.getMessage(), e);
        }
    }

    /**
     * BoringSSL: the key and chain go to the native context; trust decisions stay with a Java
     * {@link X509ExtendedTrustManager} (the JDK's by default), which also checks the host name.
     */
    private SslContext buildOpenSsl() throws GeneralSecurityException, IOException {
        PrivateKey pk = key;
        X509Certificate[] chain = keyCertChain;
        if (keyManagerFactory != null) {
            X509KeyManager km = first(X509KeyManager.class, keyManagerFactory.getKeyManagers());
            String alias = null;
            for (String type : new String[] {"EC", "RSA", "Ed25519"}) {
                String[] aliases = server ? km.getServerAliases(type, null) : km.getClientAliases(type, null);
                if (aliases != null && aliases.length > 0) {
                    alias = aliases[0];
                    break;
                }
            }
            if (alias == null) {
                throw new SSLException("the KeyManagerFactory holds no EC, RSA or Ed25519 key");
            }
            pk = km.getPrivateKey(alias);
            chain = km.getCertificateChain(alias);
        }
        TrustManager[] tms = trustManagers();
        if (tms == null) {
            TrustManagerFactory defaults = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            defaults.init((KeyStore) null);
            tms = defaults.getTrustManagers();
        }
        X509ExtendedTrustManager tm = first(X509ExtendedTrustManager.class, tms);
        List<String> suites = new ArrayList<>();
        if (cipherSuites != null) {
            for (String suite : cipherSuites) {
                if (!suite.startsWith("TLS_AES_") && !suite.startsWith("TLS_CHACHA20_")) {
                    suites.add(suite); // BoringSSL's TLS 1.3 suites are fixed
                }
            }
        }
        OpenSslNativeContext nativeContext = new OpenSslNativeContext(server, protocols,
                cipherSuites == null ? null : String.join(":", suites), pk, chain, tm, clientAuth,
                applicationProtocols, sessionCacheSize, sessionTimeoutSeconds);
        try {
            if (keyLog != null) {
                nativeContext.keyLog(keyLog);
            }
            if (ocsp) {
                nativeContext.enableOcsp();
            }
        } catch (SSLException | RuntimeException e) {
            nativeContext.closeOnce();
            throw e;
        }
        return new SslContext(null, nativeContext, !server, SslProvider.OPENSSL, protocols.clone(),
                cipherSuites == null ? new String[0] : cipherSuites.toArray(new String[0]), applicationProtocols,
                clientAuth, server ? null : endpointIdentification);
    }

    private static <T> T first(Class<T> type, Object[] managers) throws SSLException {
        for (Object m : managers) {
            if (type.isInstance(m)) {
                return type.cast(m);
            }
        }
        throw new SSLException("the OPENSSL provider needs an " + type.getSimpleName());
    }

    private KeyManager[] keyManagers() throws GeneralSecurityException, IOException {
        if (keyManagerFactory != null) {
            return keyManagerFactory.getKeyManagers();
        }
        if (key == null) {
            return null;
        }
        // The key store only lives in memory, so its password protects nothing; it is empty.
        char[] password = new char[0];
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("key", key, password, keyCertChain);
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, password);
        return factory.getKeyManagers();
    }

    private TrustManager[] trustManagers() throws GeneralSecurityException, IOException {
        if (trustManagerFactory != null) {
            return trustManagerFactory.getTrustManagers();
        }
        if (trustCertificates == null) {
            return null; // the JDK's default roots
        }
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        for (int i = 0; i < trustCertificates.length; i++) {
            store.setCertificateEntry("root-" + i, trustCertificates[i]);
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        return factory.getTrustManagers();
    }

    /** {@code wanted} (order kept, duplicates dropped), or an exception naming what the JDK lacks. */
    private static String[] checkSupported(String what, String[] wanted, String[] supported) {
        Set<String> available = Set.of(supported);
        Set<String> result = new LinkedHashSet<>(Arrays.asList(wanted));
        List<String> missing = new ArrayList<>();
        for (String w : result) {
            if (!available.contains(w)) {
                missing.add(w);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("unsupported " + what + "(s): " + missing);
        }
        return result.toArray(new String[0]);
    }

    private static <T> T requireNonNull(T value, String name) {
        if (value == null) {
            throw new NullPointerException(name);
        }
        return value;
    }

    private static long requireNonNegative(long value, String name) {
        if (value < 0) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0)");
        }
        return value;
    }
}
