package io.rill.handler.ssl;

/**
 * An engine holding native memory that {@link SslHandler} frees when it leaves the pipeline.
 * An interface, so SslHandler never loads the OpenSSL engine's class (nor tcnative) on its own.
 */
interface NativeEngine {

    /** Frees the native state now; the engine is closed afterwards. Idempotent. */
    void free();

    /** Whether the finished handshake resumed an earlier session instead of a full handshake. */
    boolean isSessionReused();

    /** Staples {@code der}, an OCSP response, to this server's handshake; see {@link SslHandler#setOcspResponse}. */
    void setOcspResponse(byte[] der);
}
