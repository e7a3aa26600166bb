package io.rill.example;

import io.rill.handler.ssl.SslContext;
import io.rill.handler.ssl.SslContextBuilder;
import io.rill.handler.ssl.util.SelfSignedCertificate;

/** TLS for the example servers' {@code --tls}: a self-signed certificate for this run only. */
final class ExampleTls {

    private ExampleTls() {
    }

    /**
     * A server context over a fresh self-signed certificate for localhost and the loopback
     * addresses; its files are deleted when the JVM exits.
     */
    static SslContext selfSignedServerContext(String exampleName) throws Exception {
        return selfSignedServerBuilder(exampleName).build();
    }

    /** The builder of {@link #selfSignedServerContext}, for a server that adds to it (ALPN). */
    static SslContextBuilder selfSignedServerBuilder(String exampleName) throws Exception {
        SelfSignedCertificate cert = new SelfSignedCertificate();
        Runtime.getRuntime().addShutdownHook(new Thread(cert::delete, exampleName + "-delete-certificate"));
        System.out.println("TLS with a self-signed certificate: " + cert.certificateFile());
        return SslContextBuilder.forServer(cert.key(), cert.certificate());
    }
}
