package io.rill.handler.ssl;

/** Every test of {@link OpenSslInteropTest} with the OPENSSL provider (BoringSSL through netty-tcnative). */
class BoringSslInteropTest extends OpenSslInteropTest implements OpenSslProvider {

    @Override
    SslProvider provider() {
        return SslProvider.OPENSSL;
    }
}
