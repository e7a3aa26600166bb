package io.rill.example;

import java.io.File;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLException;

import io.rill.channel.Channel;
import io.rill.handler.ssl.SslContext;
import io.rill.handler.ssl.SslContextBuilder;
import io.rill.handler.ssl.SslHandler;
import io.rill.handler.ssl.util.InsecureTrustManagerFactory;
import io.rill.util.concurrent.Future;

/**
 * The TLS of the client examples ({@code https://}, {@code wss://}): real trust by default, the
 * JDK's trust store and host name verification, as a browser does. A self-signed example server
 * is reached with {@code --trust PEM} (the certificate file it prints at start-up; the host name
 * is still checked, and the examples' certificates name localhost and the loopback addresses) or,
 * for testing only, {@code --insecure} (any certificate, any name).
 */
final class ClientTls {

    static final ExampleOption TRUST = ExampleOption.text("trust", "PEM", null,
            "TLS: trust the certificates in this PEM file (a self-signed server's) instead of the JDK's trust store");
    static final ExampleOption INSECURE = ExampleOption.flag("insecure",
            "TLS: accept any server certificate for any host name (testing only)");
    /** Both, for an example's {@link Example#options()}. */
    static final List<ExampleOption> OPTIONS = List.of(TRUST, INSECURE);

    private ClientTls() {
    }

    /** A client builder with the trust {@code options} ask for; ALPN and the rest are the caller's. */
    static SslContextBuilder builder(ExampleOptions options) {
        String trust = options.text(TRUST);
        boolean insecure = options.flag(INSECURE);
        if (trust != null && insecure) {
            throw new ExampleOptions.UsageException("--trust and --insecure exclude each other");
        }
        SslContextBuilder builder = SslContextBuilder.forClient();
        if (insecure) {
            return builder.trustManager(InsecureTrustManagerFactory.INSTANCE).endpointIdentificationAlgorithm(null);
        }
        if (trust != null) {
            File pem = new File(trust);
            if (!pem.isFile()) {
                throw new ExampleOptions.UsageException("--trust " + trust + ": no such file");
            }
            try {
                builder.trustManager(pem);
            } catch (SSLException | RuntimeException e) {
                throw new ExampleOptions.UsageException("--trust " + trust + ": not a PEM certificate file ("
                        + StartupFailure.describe(e) + ")");
            }
        }
        return builder;
    }

    /** {@link #builder} built. */
    static SslContext context(ExampleOptions options) throws SSLException {
        return builder(options).build();
    }

    /**
     * Waits for the TLS handshake of {@code ch} (which has an {@link SslHandler}); a failure becomes
     * one line naming the peer and the reason (see {@link #describeFailure}).
     */
    static void awaitHandshake(Channel ch, String peer, int timeoutSeconds) throws Exception {
        Future<Channel> handshake = ch.pipeline().get(SslHandler.class).handshakeFuture();
        if (!handshake.await(timeoutSeconds, TimeUnit.SECONDS)) {
            ch.close();
            throw new IllegalStateException("no TLS handshake with " + peer + " within " + timeoutSeconds + " s");
        }
        if (!handshake.isSuccess()) {
            ch.close();
            throw new StartupFailure(describeFailure(peer, handshake.cause()), handshake.cause());
        }
    }

    /**
     * What a failed TLS connection tells the user, in one line: the reason and, when the
     * certificate was not trusted, the two ways to reach a self-signed server.
     */
    static String describeFailure(String peer, Throwable cause) {
        String reason = TlsFailureLog.reason(cause);
        boolean noPath = reason.contains("certification path");
        boolean wrongName = reason.contains("No subject alternative") || reason.contains("No name matching");
        if (noPath) {
            reason = "the server's certificate is not trusted (" + reason + ")";
        }
        return "TLS with " + peer + " failed: " + reason + (noPath || wrongName
                ? "; a self-signed server? --trust its PEM file, or --insecure for a test" : "");
    }
}
