package io.rill.handler.codec.memcache.binary;

/**
 * A server's decoder: binary-protocol requests, whole, as {@link BinaryMemcacheMessage}s. Bounds
 * in the package description; a bad header is a {@link MemcacheDecoderException}.
 */
public final class BinaryMemcacheRequestDecoder extends BinaryMemcacheDecoder {

    /** Bodies up to 1 MiB plus the largest key and extras. */
    public BinaryMemcacheRequestDecoder() {
        this(DEFAULT_MAX_BODY_LENGTH);
    }

    /**
     * A decoder with its own body bound.
     *
     * @param maxBodyLength the largest body (extras, key and value) accepted
     */
    public BinaryMemcacheRequestDecoder(int maxBodyLength) {
        super(BinaryMemcacheMessage.REQUEST_MAGIC, maxBodyLength);
    }
}
