package io.rill.handler.ssl;

/** Every test of {@link SslContextTest} with the OPENSSL provider (BoringSSL through netty-tcnative). */
class OpenSslSslContextTest extends SslContextTest implements OpenSslProvider {

    @Override
    SslProvider provider() {
        return SslProvider.OPENSSL;
    }
}
