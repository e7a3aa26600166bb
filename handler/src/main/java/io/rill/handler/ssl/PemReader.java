package io.rill.handler.ssl;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Reads PEM text (RFC 7468): blocks of base64 between {@code -----BEGIN label-----} and
 * {@code -----END label-----}, anything outside the blocks ignored (openssl writes comments
 * there). Certificates are handed as DER to {@link CertificateFactory}; keys go to
 * {@link PrivateKeyDecoder}. Input is bounded: a key or chain file is a few KiB.
 */
final class PemReader {

    /** Larger than any sane certificate chain; a bigger file is rejected rather than read. */
    static final int MAX_PEM_BYTES = 4 * 1024 * 1024;

    /** One PEM block: its label (e.g. "CERTIFICATE") and decoded contents. */
    record Block(String label, byte[] der) {
    }

    private PemReader() {
    }

    static List<Block> readBlocks(InputStream in) throws IOException {
        byte[] bytes = in.readNBytes(MAX_PEM_BYTES + 1);
        if (bytes.length > MAX_PEM_BYTES) {
            throw new IOException("PEM input larger than " + MAX_PEM_BYTES + " bytes");
        }
        return readBlocks(new String(bytes, StandardCharsets.US_ASCII));
    }

    static List<Block> readBlocks(String text) throws IOException {
        List<Block> blocks = new ArrayList<>();
        String label = null;
        StringBuilder base64 = new StringBuilder();
        int lineNo = 0;
        for (String raw : text.split("\r\n|\n|\r")) {
            lineNo++;
            String line = raw.strip();
            if (label == null) {
                if (line.startsWith("-----BEGIN ") && line.endsWith("-----")) {
                    label = line.substring(11, line.length() - 5);
                    base64.setLength(0);
                }
            } else if (line.startsWith("-----END ")) {
                if (!line.equals("-----END " + label + "-----")) {
                    throw new IOException("PEM line " + lineNo + ": '" + line + "' does not end '" + label + "'");
                }
                blocks.add(new Block(label, decode(base64, label, lineNo)));
                label = null;
            } else if (line.contains(":")) {
                // RFC 1421 headers: only the legacy OpenSSL "traditional" encryption uses them.
                throw new IOException("PEM line " + lineNo + ": header '" + line + "' in " + label
                        + ": legacy OpenSSL-encrypted keys are not supported, convert with"
                        + " 'openssl pkcs8 -topk8' to an ENCRYPTED PRIVATE KEY");
            } else {
                base64.append(line);
            }
        }
        if (label != null) {
            throw new IOException("PEM: '-----BEGIN " + label + "-----' has no END line");
        }
        return blocks;
    }

    private static byte[] decode(CharSequence base64, String label, int lineNo) throws IOException {
        try {
            return Base64.getDecoder().decode(base64.toString());
        } catch (IllegalArgumentException e) {
            throw new IOException("PEM block " + label + " ending on line " + lineNo + ": bad base64: "
                    + e.getMessage(), e);
        }
    }

    /** Every CERTIFICATE block of {@code in}, in order; fails if there is none. */
    static X509Certificate[] readCertificates(InputStream in) throws CertificateException {
        List<Block> blocks;
        try {
            blocks = readBlocks(in);
        } catch (IOException e) {
            throw new CertificateException(e.getMessage(), e);
        }
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        List<X509Certificate> certs = new ArrayList<>();
        for (Block b : blocks) {
            if (b.label().equals("CERTIFICATE") || b.label().equals("X509 CERTIFICATE")) {
                certs.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(b.der())));
            }
        }
        if (certs.isEmpty()) {
            throw new CertificateException("no CERTIFICATE block in the PEM input");
        }
        return certs.toArray(new X509Certificate[0]);
    }

    /** The one private key block of {@code in}; {@code password} only for ENCRYPTED PRIVATE KEY. */
    static PrivateKey readPrivateKey(InputStream in, char[] password) throws GeneralSecurityException {
        List<Block> blocks;
        try {
            blocks = readBlocks(in);
        } catch (IOException e) {
            throw new GeneralSecurityException(e.getMessage(), e);
        }
        Block key = null;
        for (Block b : blocks) {
            if (b.label().endsWith("PRIVATE KEY")) {
                if (key != null) {
                    throw new GeneralSecurityException("more than one PRIVATE KEY block in the PEM input");
                }
                key = b;
            }
        }
        if (key == null) {
            throw new GeneralSecurityException("no PRIVATE KEY block in the PEM input");
        }
        return PrivateKeyDecoder.decode(key.label(), key.der(), password);
    }
}
