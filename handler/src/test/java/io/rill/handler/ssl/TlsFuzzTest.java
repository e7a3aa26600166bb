package io.rill.handler.ssl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;
import io.rill.handler.codec.DecoderException;

/**
 * Fuzz targets for what Rill reads of TLS before any engine does: {@link ClientHelloParser}
 * (SNI), fed the records whole and in fuzzer-chosen pieces as a cumulation grows, must give the
 * same server name or the same refusal ({@link NotSslRecordException}, or a {@code DecoderException}
 * for a malformed or over-long hello), never another exception, and only
 * a host name that passes its checks; and the record header checks of {@link SslRecords}, whose
 * two forms agree and whose lengths stay within what TLS allows (docs/security-cases.md, T-03 to
 * T-07, TL-03, TL-04).
 */
class TlsFuzzTest {

    private static final int MAX_HELLO = 4096;

    @FuzzTest
    void clientHello(byte[] input) {
        FuzzLeaks.assertNoneReported();
        String whole = sni(List.of(FuzzInput.payload(input)));
        String pieces = sni(FuzzInput.pieces(input));
        assertEquals(whole, pieces, "whole and in pieces");
    }

    /** The parser's verdict: "name=...", "no name", "incomplete" or the refusal. */
    private static String sni(List<byte[]> pieces) {
        ClientHelloParser parser = new ClientHelloParser(MAX_HELLO);
        ByteBuf cumulation = Unpooled.buffer();
        try {
            for (byte[] piece : pieces) {
                cumulation.writeBytes(piece);
                int reader = cumulation.readerIndex();
                int writer = cumulation.writerIndex();
                boolean done = parser.offer(cumulation);
                assertEquals(reader, cumulation.readerIndex(), "offer moved the reader index");
                assertEquals(writer, cumulation.writerIndex(), "offer moved the writer index");
                if (done) {
                    String name = parser.serverName();
                    if (name == null) {
                        return "no name";
                    }
                    assertTrue(name.length() <= 255 && !name.isEmpty(), "a host name of " + name.length() + " chars");
                    assertTrue(name.chars().allMatch(c -> c > 0x20 && c < 0x7f), "a host name with odd characters: " + name);
                    return "name=" + name;
                }
            }
            return "incomplete";
        } catch (NotSslRecordException e) {
            return "not TLS";
        } catch (DecoderException e) {
            // CorruptedFrameException for a malformed hello, TooLongFrameException past the cap.
            return e.getClass().getSimpleName();
        } finally {
            cumulation.release();
        }
    }

    @FuzzTest
    void recordHeaders(byte[] input) {
        byte[] payload = FuzzInput.payload(input);
        ByteBuf buf = Unpooled.wrappedBuffer(payload);
        try {
            for (int offset = 0; offset < payload.length; ) {
                int length = SslRecords.recordLength(buf, offset);
                boolean refused = false;
                try {
                    assertEquals(length, SslRecords.checkedRecordLength(buf, offset), "the two checks agree");
                } catch (NotSslRecordException e) {
                    refused = true;
                }
                assertEquals(length == SslRecords.NOT_ENCRYPTED, refused, "checked form throws exactly when not a record");
                if (length < 0) {
                    break;
                }
                assertTrue(length >= SslRecords.HEADER_LENGTH && length <= SslRecords.HEADER_LENGTH + 18_432,
                        "a record length TLS does not allow: " + length);
                offset += length;
            }
        } finally {
            buf.release();
        }
    }
}
