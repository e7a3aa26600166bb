package io.rill.handler.ssl;

/** Every test of {@link SslHandlerTest} with the OPENSSL provider (BoringSSL through netty-tcnative). */
class OpenSslSslHandlerTest extends SslHandlerTest implements OpenSslProvider {

    @Override
    SslProvider provider() {
        return SslProvider.OPENSSL;
    }
}
