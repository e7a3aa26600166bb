package io.rill.handler.ssl;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

import io.rill.buffer.ByteBuf;

/**
 * The TLS record header (RFC 5246 §6.2.1, RFC 8446 §5.1), checked before any byte reaches the
 * {@code SSLEngine}:
 *
 * <pre>
 *   +--------------+---------------+---------------+
 *   | content type | version (2 B) | length (2 B)  |  fragment: length bytes
 *   | 20..24       | 3.0 .. 3.4    | ≤ 2^14 + 2048 |
 *   +--------------+---------------+---------------+
 * </pre>
 *
 * Only whole records that pass these checks are unwrapped: a partial record never reaches the
 * engine (T-07), an SSLv2-format hello is refused (T-01: no TLS 1.2/1.3 peer sends one), and a
 * length beyond the largest TLS ciphertext closes the connection before anything is buffered
 * for it (TL-04).
 *
 * <p>{@link #wrap} is the other direction: plaintext into records, through the engine.
 *
 * <p>Case IDs such as T-07 in this file are those of docs/security-cases.md.
 */
final class SslRecords {

    static final int HEADER_LENGTH = 5;
    /** The largest plaintext fragment (RFC 8446 §5.1): writes are cut into records of this size. */
    static final int MAX_PLAINTEXT_LENGTH = 1 << 14;
    /** The largest ciphertext fragment TLS 1.2 allows (RFC 5246 §6.2.3); TLS 1.3's is smaller. */
    static final int MAX_CIPHERTEXT_LENGTH = MAX_PLAINTEXT_LENGTH + 2048;

    static final int CHANGE_CIPHER_SPEC = 20;
    static final int ALERT = 21;
    static final int HANDSHAKE = 22;
    static final int APPLICATION_DATA = 23;
    static final int HEARTBEAT = 24;

    /** {@link #recordLength} when fewer than {@link #HEADER_LENGTH} bytes are readable. */
    static final int NOT_ENOUGH_DATA = -1;
    /** {@link #recordLength} when the header is not a TLS record header. */
    static final int NOT_ENCRYPTED = -2;

    private SslRecords() {
    }

    /** The length of the record at {@code offset}, header included, or a negative verdict. */
    static int recordLength(ByteBuf buf, int offset) {
        if (buf.writerIndex() - offset < HEADER_LENGTH) {
            return NOT_ENOUGH_DATA;
        }
        int type = buf.getUnsignedByte(offset);
        int major = buf.getUnsignedByte(offset + 1);
        int minor = buf.getUnsignedByte(offset + 2);
        int length = buf.getUnsignedShort(offset + 3);
        if (type < CHANGE_CIPHER_SPEC || type > HEARTBEAT || major != 3 || minor > 4
                || length > MAX_CIPHERTEXT_LENGTH) {
            return NOT_ENCRYPTED;
        }
        return length + HEADER_LENGTH;
    }

    /** Like {@link #recordLength} but a bad header throws, naming what is wrong and quoting it. */
    static int checkedRecordLength(ByteBuf buf, int offset) throws NotSslRecordException {
        int length = recordLength(buf, offset);
        if (length != NOT_ENCRYPTED) {
            return length;
        }
        int first = buf.getUnsignedByte(offset);
        String why;
        if ((first & 0x80) != 0 && buf.getUnsignedByte(offset + 2) == 1) {
            why = "an SSLv2-format ClientHello (not accepted: SSLv2Hello is disabled)";
        } else if (buf.getUnsignedShort(offset + 3) > MAX_CIPHERTEXT_LENGTH && first >= CHANGE_CIPHER_SPEC
                && first <= HEARTBEAT && buf.getUnsignedByte(offset + 1) == 3) {
            why = "a record of " + buf.getUnsignedShort(offset + 3) + " bytes (the limit is "
                    + MAX_CIPHERTEXT_LENGTH + ")";
        } else {
            why = "not a TLS record";
        }
        throw new NotSslRecordException(why + ": " + quote(buf, offset));
    }

    /** The first bytes at {@code offset} in hex, with their printable ASCII: "47 45 54 20 2f |GET /|". */
    static String quote(ByteBuf buf, int offset) {
        int n = Math.min(16, buf.writerIndex() - offset);
        StringBuilder hex = new StringBuilder();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int b = buf.getUnsignedByte(offset + i);
            hex.append(String.format("%02x ", b));
            text.append(b >= 0x20 && b < 0x7F ? (char) b : '.');
        }
        return hex + "|" + text + "|";
    }

    /**
     * Encrypts all of {@code plain} into {@code out} (grown if the engine asks), as one record when it
     * fits one; {@code plain}'s reader index moves past what was taken.
     *
     * @throws SSLException if the engine fails, is closed or makes no progress
     */
    static void wrap(SSLEngine engine, ByteBuf plain, ByteBuf out) throws SSLException {
        while (plain.isReadable()) {
            SSLEngineResult result = engine.wrap(plain.nioBuffers(),
                    out.nioBuffer(out.writerIndex(), out.writableBytes()));
            plain.skipBytes(result.bytesConsumed());
            out.writerIndex(out.writerIndex() + result.bytesProduced());
            switch (result.getStatus()) {
                case BUFFER_OVERFLOW -> out.ensureWritable(engine.getSession().getPacketBufferSize());
                case CLOSED -> throw new SSLException("SSLEngine closed: the write was not encrypted");
                default -> {
                    // Producing without consuming is progress: queued handshake bytes went out first.
                    if (result.bytesConsumed() == 0 && result.bytesProduced() == 0) {
                        throw new SSLException("SSLEngine made no progress wrapping: " + result);
                    }
                }
            }
        }
    }
}
