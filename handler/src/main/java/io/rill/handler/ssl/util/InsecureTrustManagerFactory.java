package io.rill.handler.ssl.util;

import java.net.Socket;
import java.security.KeyStore;
import java.security.Provider;
import java.security.cert.X509Certificate;

import javax.net.ssl.ManagerFactoryParameters;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.TrustManagerFactorySpi;
import javax.net.ssl.X509ExtendedTrustManager;

import io.rill.util.InternalLogger;

/**
 * FOR TESTS ONLY: a {@link TrustManagerFactory} whose trust manager accepts every certificate
 * and every host name. A connection using it is encrypted but not authenticated, so anyone on
 * the path can impersonate the peer. Each acceptance is logged at debug level.
 *
 * <p>It is an {@link X509ExtendedTrustManager}, which makes the JDK leave host name checks to it:
 * it does none, so endpoint identification is off as well.
 */
public final class InsecureTrustManagerFactory extends TrustManagerFactory {

    private static final InternalLogger logger = InternalLogger.get(InsecureTrustManagerFactory.class);

    /** The one instance; it holds no state. */
    public static final TrustManagerFactory INSTANCE = new InsecureTrustManagerFactory();

    private static final TrustManager TRUST_ALL = new X509ExtendedTrustManager() {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            accepted("client", chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            accepted("server", chain);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
            accepted("client", chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
            accepted("server", chain);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            accepted("client", chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            accepted("server", chain);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    };

    private InsecureTrustManagerFactory() {
        super(new Spi(), new Provider("RillInsecureTrust", "1.0", "trusts every certificate; tests only") {
            private static final long serialVersionUID = 1L;
        }, "InsecureTrustAll");
    }

    private static void accepted(String side, X509Certificate[] chain) {
        if (logger.isDebugEnabled()) {
            logger.debug("accepting an unverified {} certificate: {}", side,
                    chain != null && chain.length > 0 ? chain[0].getSubjectX500Principal() : "(none)");
        }
    }

    private static final class Spi extends TrustManagerFactorySpi {
        @Override
        protected void engineInit(KeyStore keyStore) {
        }

        @Override
        protected void engineInit(ManagerFactoryParameters params) {
        }

        @Override
        protected TrustManager[] engineGetTrustManagers() {
            return new TrustManager[] {TRUST_ALL};
        }
    }
}
