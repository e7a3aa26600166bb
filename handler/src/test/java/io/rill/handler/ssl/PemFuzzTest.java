package io.rill.handler.ssl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.util.Base64;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.fuzz.FuzzInput;

/**
 * Fuzz targets for key and certificate loading: {@link PemReader} (only an {@link IOException},
 * or the certificate and key exceptions of its typed readers; the blocks it reads, written again
 * as PEM, read back the same) and {@link PrivateKeyDecoder} on any DER under each label it knows
 * (only a {@link GeneralSecurityException}). A file an operator points Rill at is not an attacker's
 * input in most deployments, but a key store fed from elsewhere may be, and a crash there stops a
 * server from starting.
 */
class PemFuzzTest {

    private static final String[] LABELS = {"PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", "ENCRYPTED PRIVATE KEY"};

    @FuzzTest
    void pem(byte[] input) throws IOException {
        byte[] payload = FuzzInput.payload(input);
        String text = new String(payload, StandardCharsets.ISO_8859_1);
        List<PemReader.Block> blocks;
        try {
            blocks = PemReader.readBlocks(text);
        } catch (IOException expected) {
            return;
        }
        StringBuilder again = new StringBuilder();
        for (PemReader.Block b : blocks) {
            again.append("-----BEGIN ").append(b.label()).append("-----\n")
                    .append(Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(b.der()))
                    .append("\n-----END ").append(b.label()).append("-----\n");
        }
        List<PemReader.Block> reread = PemReader.readBlocks(again.toString());
        assertEquals(blocks.size(), reread.size(), "blocks, PEM, blocks");
        for (int i = 0; i < blocks.size(); i++) {
            assertEquals(blocks.get(i).label(), reread.get(i).label());
            assertArrayEquals(blocks.get(i).der(), reread.get(i).der());
        }
        try {
            PemReader.readCertificates(new ByteArrayInputStream(payload));
        } catch (CertificateException expected) {
            // not certificates
        }
        try {
            PemReader.readPrivateKey(new ByteArrayInputStream(payload), "fuzz".toCharArray());
        } catch (GeneralSecurityException expected) {
            // not a key
        }
    }

    @FuzzTest
    void privateKey(byte[] input) {
        String label = LABELS[input.length == 0 ? 0 : (input[0] & 0xFF) % LABELS.length];
        byte[] der = FuzzInput.payload(input);
        try {
            PrivateKeyDecoder.decode(label, der, "fuzz".toCharArray());
        } catch (GeneralSecurityException expected) {
            // malformed, or a key the JDK refuses
        }
        try {
            PrivateKeyDecoder.pkcs8Algorithm(der);
        } catch (GeneralSecurityException expected) {
            // not PKCS#8
        }
    }
}
