package io.rill.handler.codec.memcache.binary;

/**
 * A client's decoder: binary-protocol responses, whole, as {@link BinaryMemcacheMessage}s. Bounds
 * in the package description; a bad header is a {@link MemcacheDecoderException}.
 */
public final class BinaryMemcacheResponseDecoder extends BinaryMemcacheDecoder {

    /** Bodies up to 1 MiB plus the largest key and extras. */
    public BinaryMemcacheResponseDecoder() {
        this(DEFAULT_MAX_BODY_LENGTH);
    }

    /**
     * A decoder with its own body bound.
     *
     * @param maxBodyLength the largest body (extras, key and value) accepted
     */
    public BinaryMemcacheResponseDecoder(int maxBodyLength) {
        super(BinaryMemcacheMessage.RESPONSE_MAGIC, maxBodyLength);
    }
}
