package io.rill.handler.ssl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;

import javax.crypto.Cipher;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.PBEParameterSpec;
import javax.net.ssl.SSLException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rill.buffer.ByteBufAllocator;
import io.rill.handler.internal.DerReader;
import io.rill.handler.internal.DerWriter;

/** Private keys and certificates read from PEM in every supported form, and the errors for bad ones. */
class PemKeyMaterialTest {

    @TempDir
    Path dir;

    private static KeyPair ec() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }

    private static KeyPair rsa() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        return g.generateKeyPair();
    }

    private static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder().encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }

    private static PrivateKey read(String pem, String password) throws GeneralSecurityException {
        return PemReader.readPrivateKey(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)),
                password == null ? null : password.toCharArray());
    }

    /** The key inside a PKCS#8 PrivateKeyInfo: its PKCS#1 or SEC1 form. */
    private static byte[] innerKey(byte[] pkcs8) throws GeneralSecurityException {
        DerReader info = new DerReader(pkcs8).sequence();
        info.integer();
        info.skip();
        return info.octetString();
    }

    @Test
    void readsPkcs8KeysOfEveryCommonAlgorithm() throws Exception {
        for (KeyPair pair : new KeyPair[] {ec(), rsa(), KeyPairGenerator.getInstance("Ed25519").generateKeyPair()}) {
            PrivateKey key = read("comment before the block\n" + pem("PRIVATE KEY", pair.getPrivate().getEncoded()), null);
            assertArrayEquals(pair.getPrivate().getEncoded(), key.getEncoded(), pair.getPrivate().getAlgorithm());
        }
    }

    @Test
    void readsPkcs1RsaKeys() throws Exception {
        KeyPair pair = rsa();
        PrivateKey key = read(pem("RSA PRIVATE KEY", innerKey(pair.getPrivate().getEncoded())), null);
        assertEquals("RSA", key.getAlgorithm());
        assertArrayEquals(pair.getPrivate().getEncoded(), key.getEncoded());
    }

    @Test
    void readsSec1EcKeysWithTheirNamedCurve() throws Exception {
        KeyPair pair = ec();
        DerReader inner = new DerReader(innerKey(pair.getPrivate().getEncoded())).sequence();
        inner.integer();
        byte[] secret = inner.octetString();
        byte[] sec1 = DerWriter.sequence(DerWriter.integer(1), DerWriter.octetString(secret),
                DerWriter.explicit(0, DerWriter.oid("1.2.840.10045.3.1.7")));
        PrivateKey key = read(pem("EC PRIVATE KEY", sec1), null);
        assertEquals("EC", key.getAlgorithm());
        assertEquals(((ECPrivateKey) pair.getPrivate()).getS(),
                ((ECPrivateKey) key).getS());
    }

    @Test
    void readsEncryptedPkcs8WithPbes2AndRejectsAWrongPassword() throws Exception {
        KeyPair pair = ec();
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        String algorithm = "PBEWithHmacSHA256AndAES_256";
        Cipher cipher = Cipher.getInstance(algorithm);
        cipher.init(Cipher.ENCRYPT_MODE,
                SecretKeyFactory.getInstance(algorithm).generateSecret(new PBEKeySpec("s3cret".toCharArray())),
                new PBEParameterSpec(salt, 10_000));
        // EncryptedPrivateKeyInfo = SEQUENCE { {PBES2 OID, PBES2-params}, OCTET STRING encrypted }
        byte[] encrypted = DerWriter.sequence(
                DerWriter.sequence(DerWriter.oid("1.2.840.113549.1.5.13"), cipher.getParameters().getEncoded()),
                DerWriter.octetString(cipher.doFinal(pair.getPrivate().getEncoded())));
        String pem = pem("ENCRYPTED PRIVATE KEY", encrypted);

        assertArrayEquals(pair.getPrivate().getEncoded(), read(pem, "s3cret").getEncoded());
        GeneralSecurityException wrong = assertThrows(GeneralSecurityException.class, () -> read(pem, "guess"));
        assertTrue(wrong.getMessage().contains("wrong password"), wrong.getMessage());
        GeneralSecurityException none = assertThrows(GeneralSecurityException.class, () -> read(pem, null));
        assertTrue(none.getMessage().contains("no password"), none.getMessage());
    }

    @Test
    void readsKeysWrittenByOpenssl() throws Exception {
        OpenSslTool.assumeAvailable();
        // Each form openssl writes: SEC1 with curve, PKCS#1, and PBES2/AES-256-CBC encrypted PKCS#8.
        OpenSslTool.run(dir, "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "sec1.pem");
        OpenSslTool.run(dir, "genrsa", "-traditional", "-out", "pkcs1.pem", "2048");
        OpenSslTool.run(dir, "pkcs8", "-topk8", "-in", "sec1.pem", "-out", "enc.pem", "-v2", "aes-256-cbc",
                "-passout", "pass:pw");
        OpenSslTool.run(dir, "pkcs8", "-topk8", "-nocrypt", "-in", "pkcs1.pem", "-out", "pkcs8.pem");
        assertTrue(Files.readString(dir.resolve("sec1.pem")).contains("BEGIN EC PRIVATE KEY"));
        assertTrue(Files.readString(dir.resolve("pkcs1.pem")).contains("BEGIN RSA PRIVATE KEY"));
        PrivateKey sec1 = read(Files.readString(dir.resolve("sec1.pem")), null);
        PrivateKey enc = read(Files.readString(dir.resolve("enc.pem")), "pw");
        assertEquals(((ECPrivateKey) sec1).getS(), ((ECPrivateKey) enc).getS());
        PrivateKey pkcs1 = read(Files.readString(dir.resolve("pkcs1.pem")), null);
        PrivateKey pkcs8 = read(Files.readString(dir.resolve("pkcs8.pem")), null);
        assertArrayEquals(pkcs1.getEncoded(), pkcs8.getEncoded());
    }

    @Test
    void aServerContextFromOpensslFilesCompletesAHandshake() throws Exception {
        OpenSslTool.assumeAvailable();
        OpenSslTool.run(dir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out",
                "cert.pem", "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost");
        SslContext server = SslContextBuilder.forServer(dir.resolve("cert.pem").toFile(), dir.resolve("key.pem").toFile())
                .build();
        SslContext client = SslContextBuilder.forClient().trustManager(dir.resolve("cert.pem").toFile()).build();
        TlsPeer s = new TlsPeer(server.newHandler(ByteBufAllocator.DEFAULT));
        TlsPeer c = new TlsPeer(client.newHandler(ByteBufAllocator.DEFAULT, "localhost", 443));
        TlsPeer.exchange(c, s);
        assertTrue(c.handshakeSucceeded() && s.handshakeSucceeded());
        s.dispose();
        c.dispose();
    }

    @Test
    void badPemAndBadDerFailWithMessagesThatSayWhy() {
        GeneralSecurityException legacy = assertThrows(GeneralSecurityException.class, () -> read(
                "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\nAAAA\n"
                        + "-----END RSA PRIVATE KEY-----\n", "pw"));
        assertTrue(legacy.getMessage().contains("openssl pkcs8 -topk8"), legacy.getMessage());

        GeneralSecurityException noEnd = assertThrows(GeneralSecurityException.class,
                () -> read("-----BEGIN PRIVATE KEY-----\nAAAA\n", null));
        assertTrue(noEnd.getMessage().contains("no END"), noEnd.getMessage());

        // A SEQUENCE claiming 0x0100 bytes with four present.
        byte[] lying = {0x30, (byte) 0x82, 0x01, 0x00, 0x02, 0x01, 0x00, 0x30};
        GeneralSecurityException der = assertThrows(GeneralSecurityException.class,
                () -> read(pem("PRIVATE KEY", lying), null));
        assertTrue(der.getMessage().contains("runs past"), der.getMessage());

        GeneralSecurityException unknown = assertThrows(GeneralSecurityException.class,
                () -> read(pem("DSA PRIVATE KEY", new byte[] {0x30, 0}), null));
        assertTrue(unknown.getMessage().contains("unsupported key type"), unknown.getMessage());
    }

    @Test
    void certificatesMustBePresent() {
        SSLException e = assertThrows(SSLException.class, () -> SslContextBuilder.forClient()
                .trustManager(new ByteArrayInputStream("no pem here".getBytes(StandardCharsets.US_ASCII))));
        assertTrue(e.getMessage().contains("no CERTIFICATE"), e.getMessage());
    }

    @Test
    void derOidsRoundTrip() throws Exception {
        for (String oid : new String[] {"1.2.840.113549.1.1.11", "2.5.29.17", "1.3.101.112", "2.999.1"}) {
            assertEquals(oid, new DerReader(DerWriter.oid(oid)).oid());
        }
    }

    /** Found by fuzzing (DerFuzzTest corpus walk/empty_integer, PemFuzzTest corpus privateKey/sec1_key_with_empty_version). */
    @Test
    void anEmptyIntegerIsAKeyErrorNotANumberFormatException() {
        byte[] emptyVersion = {0x30, 0x02, 0x02, 0x00};
        GeneralSecurityException e = assertThrows(GeneralSecurityException.class,
                () -> PrivateKeyDecoder.decode("EC PRIVATE KEY", emptyVersion, null));
        assertTrue(e.getMessage().contains("empty INTEGER"), e.getMessage());
        assertThrows(GeneralSecurityException.class, () -> new DerReader(new byte[] {0x02, 0x00}).integer());
    }

    /** Found by fuzzing (DerFuzzTest corpus walk/oid_ending_inside_a_subidentifier, PemFuzzTest corpus privateKey/sec1_curve_oid_cut_short). */
    @Test
    void anObjectIdentifierCutInsideASubidentifierIsAKeyError() throws Exception {
        assertThrows(GeneralSecurityException.class, () -> new DerReader(new byte[] {0x06, 0x01, (byte) 0x80}).oid());
        assertThrows(GeneralSecurityException.class, () -> new DerReader(new byte[] {0x06, 0x02, 0x2a, (byte) 0x86}).oid());
        assertEquals("1.2.840", new DerReader(new byte[] {0x06, 0x03, 0x2a, (byte) 0x86, 0x48}).oid());
        // SEQUENCE { INTEGER 1, OCTET STRING, [0] { OID 06 01 80 } }: a SEC1 key whose curve OID is cut short.
        byte[] sec1 = {0x30, 0x0a, 0x02, 0x01, 0x01, 0x04, 0x00, (byte) 0xa0, 0x03, 0x06, 0x01, (byte) 0x80};
        assertThrows(GeneralSecurityException.class, () -> PrivateKeyDecoder.decode("EC PRIVATE KEY", sec1, null));
    }
}
