package io.rill.handler.ssl;

import java.io.ByteArrayInputStream;
import java.security.Principal;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSessionContext;

import io.netty.internal.tcnative.SSL;

/**
 * What an {@link OpenSslEngine} negotiated, read from its {@code SSL} while it lives and kept
 * after {@link #capture()} (the handshake's end, and before the {@code SSL} is freed). During
 * the handshake it is the engine's handshake session, which the JDK's trust manager reads for
 * the host name and the protocol version.
 */
final class OpenSslSession extends ExtendedSSLSession {

    /**
     * OpenSSL names of the TLS 1.2 suites BoringSSL offers, to the IANA names Java uses (TLS 1.3
     * suites already have IANA names).
     */
    private static final Map<String, String> JAVA_NAMES = Map.ofEntries(
            Map.entry("ECDHE-ECDSA-AES128-GCM-SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"),
            Map.entry("ECDHE-ECDSA-AES256-GCM-SHA384", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"),
            Map.entry("ECDHE-RSA-AES128-GCM-SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"),
            Map.entry("ECDHE-RSA-AES256-GCM-SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"),
            Map.entry("ECDHE-ECDSA-CHACHA20-POLY1305", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"),
            Map.entry("ECDHE-RSA-CHACHA20-POLY1305", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"),
            Map.entry("ECDHE-ECDSA-AES128-SHA", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA"),
            Map.entry("ECDHE-ECDSA-AES256-SHA", "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA"),
            Map.entry("ECDHE-RSA-AES128-SHA", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA"),
            Map.entry("ECDHE-RSA-AES256-SHA", "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA"),
            Map.entry("AES128-GCM-SHA256", "TLS_RSA_WITH_AES_128_GCM_SHA256"),
            Map.entry("AES256-GCM-SHA384", "TLS_RSA_WITH_AES_256_GCM_SHA384"),
            Map.entry("AES128-SHA", "TLS_RSA_WITH_AES_128_CBC_SHA"),
            Map.entry("AES256-SHA", "TLS_RSA_WITH_AES_256_CBC_SHA"));

    /** Java names the JDK's trust manager compares certificate signatures with (TLS 1.2+ rules). */
    private static final String[] SIGNATURE_ALGORITHMS = {
        "SHA256withECDSA", "SHA384withECDSA", "SHA512withECDSA", "SHA256withRSA", "SHA384withRSA",
        "SHA512withRSA", "RSASSA-PSS", "Ed25519", "SHA1withRSA", "SHA1withECDSA"};

    private final OpenSslEngine engine;
    private final long creationTime = System.currentTimeMillis();
    private final Map<String, Object> values = new ConcurrentHashMap<>();
    private volatile String protocol;
    private volatile String cipherSuite;
    private volatile String applicationProtocol;
    private volatile byte[] id = new byte[0];
    private volatile X509Certificate[] peerCertificates;
    /** The OCSP response the server stapled, for a client; null when none came. */
    private volatile byte[] ocspResponse;

    OpenSslSession(OpenSslEngine engine) {
        this.engine = engine;
    }

    static String javaCipherName(String openSslName) {
        return JAVA_NAMES.getOrDefault(openSslName, openSslName);
    }

    /** Reads everything from the live {@code SSL}. */
    void capture() {
        long ssl = engine.ssl();
        if (ssl == 0) {
            return;
        }
        protocol = SSL.getVersion(ssl);
        String cipher = SSL.getCipherForSSL(ssl);
        cipherSuite = cipher == null ? null : javaCipherName(cipher);
        applicationProtocol = SSL.getAlpnSelected(ssl);
        byte[] sessionId = SSL.getSessionId(ssl);
        id = sessionId == null ? new byte[0] : sessionId;
        if (peerCertificates == null) {
            peerCertificates = readPeerChain(ssl);
        }
        if (engine.getUseClientMode()) {
            ocspResponse = SSL.getOcspResponse(ssl);
        }
    }

    void peerChainForVerification(X509Certificate[] chain) {
        peerCertificates = chain;
    }

    String applicationProtocol() {
        return applicationProtocol;
    }

    private X509Certificate[] readPeerChain(long ssl) {
        byte[][] chain = SSL.getPeerCertChain(ssl);
        byte[] leaf = SSL.getPeerCertificate(ssl);
        if (leaf == null) {
            return null;
        }
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            // A server's SSL_get_peer_cert_chain leaves out the client's own certificate.
            boolean leafInChain = chain != null && chain.length > 0 && java.util.Arrays.equals(chain[0], leaf);
            int extra = chain == null ? 0 : chain.length - (leafInChain ? 1 : 0);
            X509Certificate[] out = new X509Certificate[1 + extra];
            out[0] = (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(leaf));
            for (int i = 1; i < out.length; i++) {
                byte[] der = chain[leafInChain ? i : i - 1];
                out[i] = (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der));
            }
            return out;
        } catch (CertificateException e) {
            return null;
        }
    }

    private String live(String captured, java.util.function.LongFunction<String> read) {
        long ssl = engine.ssl();
        return captured != null || ssl == 0 ? captured : read.apply(ssl);
    }

    @Override
    public String getProtocol() {
        String p = live(protocol, SSL::getVersion);
        return p == null ? "NONE" : p;
    }

    @Override
    public String getCipherSuite() {
        String c = live(cipherSuite, ssl -> javaCipherName(SSL.getCipherForSSL(ssl)));
        return c == null ? "SSL_NULL_WITH_NULL_NULL" : c;
    }

    @Override
    public Certificate[] getPeerCertificates() throws SSLPeerUnverifiedException {
        X509Certificate[] chain = peerCertificates;
        if (chain == null && engine.ssl() != 0) {
            chain = readPeerChain(engine.ssl());
        }
        if (chain == null) {
            throw new SSLPeerUnverifiedException("the peer presented no certificate");
        }
        return chain.clone();
    }

    @Override
    public Certificate[] getLocalCertificates() {
        return null;
    }

    @Override
    public Principal getPeerPrincipal() throws SSLPeerUnverifiedException {
        return ((X509Certificate) getPeerCertificates()[0]).getSubjectX500Principal();
    }

    @Override
    public Principal getLocalPrincipal() {
        return null;
    }

    @Override
    public String[] getLocalSupportedSignatureAlgorithms() {
        return SIGNATURE_ALGORITHMS.clone();
    }

    @Override
    public String[] getPeerSupportedSignatureAlgorithms() {
        return SIGNATURE_ALGORITHMS.clone();
    }

    @Override
    public List<SNIServerName> getRequestedServerNames() {
        return List.of();
    }

    /**
     * The OCSP response the server stapled (RFC 6066 §8), when this client asked for one
     * ({@link SslContextBuilder#enableOcsp}); empty otherwise, and always for a server.
     */
    @Override
    public List<byte[]> getStatusResponses() {
        byte[] der = ocspResponse;
        long ssl = engine.ssl();
        if (der == null && ssl != 0 && engine.getUseClientMode()) {
            der = SSL.getOcspResponse(ssl); // during the handshake, before capture()
        }
        return der == null ? List.of() : List.of(der.clone());
    }

    @Override
    public byte[] getId() {
        return id.clone();
    }

    @Override
    public SSLSessionContext getSessionContext() {
        return null;
    }

    @Override
    public long getCreationTime() {
        return creationTime;
    }

    @Override
    public long getLastAccessedTime() {
        return creationTime;
    }

    @Override
    public void invalidate() {
    }

    @Override
    public boolean isValid() {
        return engine.ssl() != 0 || protocol != null;
    }

    @Override
    public void putValue(String name, Object value) {
        values.put(name, value);
    }

    @Override
    public Object getValue(String name) {
        return values.get(name);
    }

    @Override
    public void removeValue(String name) {
        values.remove(name);
    }

    @Override
    public String[] getValueNames() {
        return values.keySet().toArray(new String[0]);
    }

    @Override
    public String getPeerHost() {
        return engine.getPeerHost();
    }

    @Override
    public int getPeerPort() {
        return engine.getPeerPort();
    }

    @Override
    public int getPacketBufferSize() {
        return OpenSslEngine.MAX_RECORD;
    }

    @Override
    public int getApplicationBufferSize() {
        return OpenSslEngine.MAX_PLAINTEXT;
    }
}
