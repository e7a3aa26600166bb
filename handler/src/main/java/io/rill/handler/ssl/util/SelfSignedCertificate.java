package io.rill.handler.ssl.util;

import static io.rill.handler.internal.DerWriter.bitString;
import static io.rill.handler.internal.DerWriter.explicit;
import static io.rill.handler.internal.DerWriter.implicit;
import static io.rill.handler.internal.DerWriter.integer;
import static io.rill.handler.internal.DerWriter.nul;
import static io.rill.handler.internal.DerWriter.octetString;
import static io.rill.handler.internal.DerWriter.oid;
import static io.rill.handler.internal.DerWriter.sequence;
import static io.rill.handler.internal.DerWriter.set;
import static io.rill.handler.internal.DerWriter.time;
import static io.rill.handler.internal.DerWriter.utf8String;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import io.rill.handler.internal.DerWriter;

/**
 * FOR TESTS AND EXAMPLES ONLY: a freshly generated key pair and an X.509 v3 certificate signed
 * by its own key. For APIs that take files it is written to PEM files (mode 0600 in a private
 * temp directory, removed by {@link #delete()} or when the JVM exits) the first time one of them is
 * asked for, so a user of {@link #key()} and {@link #certificate()} alone leaves nothing on disk,
 * even in a JVM that is killed. Nobody trusts it unless told to, so clients need it as their trust root (or an insecure
 * trust manager).
 *
 * <p>The certificate is built here in DER (RFC 5280 §4.1) and signed with
 * {@link Signature}, so no JDK-internal class is involved:
 *
 * <pre>
 *   Certificate  = SEQUENCE { tbsCertificate, signatureAlgorithm, BIT STRING signature }
 *   TBS          = SEQUENCE { [0] v3, serial, signatureAlgorithm, issuer = subject,
 *                             validity, subject (CN=first name), subjectPublicKeyInfo,
 *                             [3] { subjectAltName: DNS names and IP addresses } }
 * </pre>
 */
public final class SelfSignedCertificate {

    private static final String OID_COMMON_NAME = "2.5.4.3";
    private static final String OID_SUBJECT_ALT_NAME = "2.5.29.17";
    private static final String OID_BASIC_CONSTRAINTS = "2.5.29.19";
    private static final String OID_ECDSA_SHA256 = "1.2.840.10045.4.3.2";
    private static final String OID_RSA_SHA256 = "1.2.840.113549.1.1.11";

    private final X509Certificate certificate;
    private final PrivateKey key;
    /** The folder of the PEM files; null until a file is first asked for. Guarded by this. */
    private Path directory;
    private File certificateFile;
    private File privateKeyFile;

    /** A certificate for "localhost", 127.0.0.1 and ::1 with an EC P-256 key, valid for a year. */
    public SelfSignedCertificate() {
        this(builder());
    }

    /**
     * A certificate for the given DNS names (the first is also the subject CN), EC P-256.
     *
     * @param dnsNames the names the certificate is for; at least one
     * @throws IllegalStateException if the JDK cannot generate the key or the signature
     */
    public SelfSignedCertificate(String... dnsNames) {
        this(builder().dnsNames(dnsNames).ipAddresses());
    }

    private SelfSignedCertificate(Builder b) {
        try {
            KeyPair pair = generateKeyPair(b.algorithm);
            this.key = pair.getPrivate();
            this.certificate = sign(tbsCertificate(b, pair), pair.getPrivate(), b.algorithm);
            certificate.verify(pair.getPublic());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot generate a self-signed certificate: " + e.getMessage(), e);
        }
    }

    /** Writes both PEM files unless they are written already. */
    private synchronized void writeFiles() {
        if (directory != null) {
            return;
        }
        try {
            Path dir = privateTempDirectory();
            // Registered directory first: deleteOnExit runs in reverse order, files before their directory.
            dir.toFile().deleteOnExit();
            certificateFile = writePrivately(dir.resolve("cert.pem"), certificatePem());
            privateKeyFile = writePrivately(dir.resolve("key.pem"), privateKeyPem());
            directory = dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A builder for a certificate other than the default one.
     *
     * @return a new builder, starting from the defaults of {@link #SelfSignedCertificate()}
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The certificate.
     *
     * @return the certificate, self-signed
     */
    public X509Certificate certificate() {
        return certificate;
    }

    /**
     * The certificate's private key.
     *
     * @return the key
     */
    public PrivateKey key() {
        return key;
    }

    /**
     * The certificate as a PEM file (readable by the owner only).
     *
     * @return the file, deleted by {@link #delete()} or when the JVM exits
     * @throws UncheckedIOException if the file cannot be written
     */
    public synchronized File certificateFile() {
        writeFiles();
        return certificateFile;
    }

    /**
     * The private key as an unencrypted PKCS#8 PEM file (readable by the owner only).
     *
     * @return the file, deleted by {@link #delete()} or when the JVM exits
     * @throws UncheckedIOException if the file cannot be written
     */
    public synchronized File privateKeyFile() {
        writeFiles();
        return privateKeyFile;
    }

    /**
     * The certificate in PEM.
     *
     * @return the text of a {@code CERTIFICATE} PEM block
     */
    public String certificatePem() {
        try {
            return pem("CERTIFICATE", certificate.getEncoded());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The private key in PEM, unencrypted: for tests only.
     *
     * @return the text of a PKCS#8 {@code PRIVATE KEY} PEM block
     */
    public String privateKeyPem() {
        return pem("PRIVATE KEY", key.getEncoded());
    }

    /** Deletes the PEM files and their directory, if they were written; asking for a file writes them again. */
    public synchronized void delete() {
        if (directory == null) {
            return;
        }
        try {
            Files.deleteIfExists(certificateFile.toPath());
            Files.deleteIfExists(privateKeyFile.toPath());
            Files.deleteIfExists(directory);
            directory = null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }

    private static KeyPair generateKeyPair(String algorithm) throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
        if (algorithm.equals("EC")) {
            generator.initialize(new ECGenParameterSpec("secp256r1"));
        } else {
            generator.initialize(2048);
        }
        return generator.generateKeyPair();
    }

    private static byte[] signatureAlgorithm(String keyAlgorithm) {
        // RFC 5758 §3.2: ECDSA identifiers have no parameters; RFC 4055 §5: RSA ones have NULL.
        return keyAlgorithm.equals("EC") ? sequence(oid(OID_ECDSA_SHA256)) : sequence(oid(OID_RSA_SHA256), nul());
    }

    private static byte[] tbsCertificate(Builder b, KeyPair pair) {
        byte[] name = sequence(set(sequence(oid(OID_COMMON_NAME), utf8String(b.commonName()))));
        List<byte[]> altNames = new ArrayList<>();
        for (String dns : b.dnsNames) {
            altNames.add(implicit(2, dns.getBytes(StandardCharsets.US_ASCII))); // dNSName [2] IA5String
        }
        for (InetAddress ip : b.ipAddresses) {
            altNames.add(implicit(7, ip.getAddress())); // iPAddress [7] OCTET STRING
        }
        // basicConstraints, critical, with cA left at its default FALSE: an end-entity certificate
        // that cannot be used to sign others even by a peer that trusts it as a root.
        byte[] extensions = sequence(
                sequence(oid(OID_BASIC_CONSTRAINTS), DerWriter.bool(true), octetString(sequence())),
                sequence(oid(OID_SUBJECT_ALT_NAME), octetString(sequence(altNames.toArray(new byte[0][])))));
        BigInteger serial = new BigInteger(64, new SecureRandom()).setBit(63); // positive, 8 bytes
        return sequence(
                explicit(0, integer(2)), // version v3
                integer(serial),
                signatureAlgorithm(b.algorithm),
                name,
                sequence(time(b.notBefore), time(b.notAfter)),
                name,
                pair.getPublic().getEncoded(), // SubjectPublicKeyInfo, already DER
                explicit(3, extensions));
    }

    private static X509Certificate sign(byte[] tbs, PrivateKey key, String algorithm) throws GeneralSecurityException {
        Signature signer = Signature.getInstance(algorithm.equals("EC") ? "SHA256withECDSA" : "SHA256withRSA");
        signer.initSign(key);
        signer.update(tbs);
        byte[] der = sequence(tbs, signatureAlgorithm(algorithm), bitString(signer.sign()));
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(der));
    }

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    private static Path privateTempDirectory() throws IOException {
        return posix()
                ? Files.createTempDirectory("rill-selfsigned",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")))
                : Files.createTempDirectory("rill-selfsigned");
    }

    private static File writePrivately(Path path, String content) throws IOException {
        if (posix()) {
            Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        Files.writeString(path, content, StandardCharsets.US_ASCII);
        path.toFile().deleteOnExit();
        return path.toFile();
    }

    /** Names, key type and validity of a {@link SelfSignedCertificate}. */
    public static final class Builder {
        private List<String> dnsNames = List.of("localhost");
        private List<InetAddress> ipAddresses;
        private String algorithm = "EC";
        private ZonedDateTime notBefore = ZonedDateTime.now(ZoneOffset.UTC).minusDays(1);
        private ZonedDateTime notAfter = notBefore.plusDays(366);

        private Builder() {
            try {
                ipAddresses = List.of(InetAddress.getByName("127.0.0.1"), InetAddress.getByName("::1"));
            } catch (IOException e) {
                throw new UncheckedIOException(e); // literals: never resolved over the network
            }
        }

        /**
         * Subject alternative DNS names; the first one is also the subject's common name.
         *
         * @param names the DNS names; replaces those set before
         * @return this builder
         */
        public Builder dnsNames(String... names) {
            this.dnsNames = List.of(names);
            return this;
        }

        /**
         * Subject alternative IP addresses, as literals ("127.0.0.1", "::1").
         *
         * @param literals the IP address literals; replaces those set before
         * @return this builder
         * @throws IllegalArgumentException if a literal is not an IP address
         */
        public Builder ipAddresses(String... literals) {
            List<InetAddress> ips = new ArrayList<>();
            for (String literal : literals) {
                if (!literal.matches("[0-9a-fA-F:.]+")) {
                    throw new IllegalArgumentException("not an IP literal: " + literal);
                }
                try {
                    ips.add(InetAddress.getByName(literal));
                } catch (IOException e) {
                    throw new IllegalArgumentException("not an IP literal: " + literal, e);
                }
            }
            this.ipAddresses = List.copyOf(ips);
            return this;
        }

        /**
         * "EC" (P-256, the default) or "RSA" (2048 bits).
         *
         * @param algorithm {@code "EC"} or {@code "RSA"}
         * @return this builder
         * @throws IllegalArgumentException for another algorithm
         */
        public Builder algorithm(String algorithm) {
            if (!algorithm.equals("EC") && !algorithm.equals("RSA")) {
                throw new IllegalArgumentException("algorithm: " + algorithm + " (expected: EC or RSA)");
            }
            this.algorithm = algorithm;
            return this;
        }

        /**
         * The validity period; a past {@code notAfter} makes an expired certificate.
         *
         * @param notBefore the start of the validity period
         * @param notAfter  the end of the validity period; after {@code notBefore}
         * @return this builder
         * @throws IllegalArgumentException if {@code notAfter} is not after {@code notBefore}
         */
        public Builder validity(ZonedDateTime notBefore, ZonedDateTime notAfter) {
            if (!notAfter.isAfter(notBefore)) {
                throw new IllegalArgumentException("notAfter must be after notBefore");
            }
            this.notBefore = notBefore;
            this.notAfter = notAfter;
            return this;
        }

        /**
         * The validity period: from the current {@code notBefore} (now, unless set) for {@code duration}.
         *
         * @param duration how long the certificate is valid
         * @return this builder
         */
        public Builder validFor(Duration duration) {
            return validity(notBefore, notBefore.plus(duration));
        }

        /**
         * Generates the key pair and signs the certificate, writing both as PEM files to a new private
         * temporary directory.
         *
         * @return the new certificate
         * @throws IllegalStateException if neither a DNS name nor an IP address was given
         */
        public SelfSignedCertificate build() {
            if (dnsNames.isEmpty() && ipAddresses.isEmpty()) {
                throw new IllegalStateException("at least one DNS name or IP address is required");
            }
            return new SelfSignedCertificate(this);
        }

        private String commonName() {
            return dnsNames.isEmpty() ? ipAddresses.get(0).getHostAddress() : dnsNames.get(0);
        }
    }
}
