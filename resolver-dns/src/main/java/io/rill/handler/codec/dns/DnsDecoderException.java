package io.rill.handler.codec.dns;

import io.rill.handler.codec.CorruptedFrameException;

/**
 * A DNS message that breaks RFC 1035's wire format: truncated, a compression pointer that loops,
 * points forward or out of the message, a label over 63 or a name over 255 octets, a record whose
 * data does not fill its RDLENGTH. The message says which rule and at which offset.
 */
public class DnsDecoderException extends CorruptedFrameException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message that names the broken rule.
     *
     * @param message what was wrong, and where
     */
    public DnsDecoderException(String message) {
        super(message);
    }
}
