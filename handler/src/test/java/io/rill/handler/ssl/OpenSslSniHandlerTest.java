package io.rill.handler.ssl;

/** Every test of {@link SniHandlerTest} with the OPENSSL provider (BoringSSL through netty-tcnative). */
class OpenSslSniHandlerTest extends SniHandlerTest implements OpenSslProvider {

    @Override
    SslProvider provider() {
        return SslProvider.OPENSSL;
    }
}
