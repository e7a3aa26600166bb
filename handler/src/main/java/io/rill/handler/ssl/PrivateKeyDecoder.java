package io.rill.handler.ssl;

import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;

import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

import io.rill.handler.internal.DerReader;
import io.rill.handler.internal.DerWriter;

/**
 * Turns the DER of a private key PEM block into a {@link PrivateKey} with JDK public APIs only.
 * Every form is first brought to PKCS#8 (RFC 5208), the one {@link KeyFactory} reads:
 *
 * <pre>
 *   PRIVATE KEY            PKCS#8 PrivateKeyInfo            as is
 *   RSA PRIVATE KEY        PKCS#1 RSAPrivateKey (RFC 8017)  wrapped: {0, {rsaEncryption, NULL}, OCTET pkcs1}
 *   EC PRIVATE KEY         SEC1 ECPrivateKey (RFC 5915)     wrapped: {0, {id-ecPublicKey, curve}, OCTET sec1}
 *   ENCRYPTED PRIVATE KEY  PKCS#8 EncryptedPrivateKeyInfo   decrypted with the password (PBES1 or PBES2)
 * </pre>
 */
final class PrivateKeyDecoder {

    private static final String OID_RSA = "1.2.840.113549.1.1.1";
    private static final String OID_RSA_PSS = "1.2.840.113549.1.1.10";
    private static final String OID_EC = "1.2.840.10045.2.1";
    private static final String OID_DSA = "1.2.840.10040.4.1";
    private static final String OID_ED25519 = "1.3.101.112";
    private static final String OID_ED448 = "1.3.101.113";
    private static final String OID_PBES2 = "1.2.840.113549.1.5.13";

    private PrivateKeyDecoder() {
    }

    static PrivateKey decode(String label, byte[] der, char[] password) throws GeneralSecurityException {
        switch (label) {
            case "PRIVATE KEY":
                return fromPkcs8(der);
            case "RSA PRIVATE KEY":
                return fromPkcs8(DerWriter.sequence(DerWriter.integer(0),
                        DerWriter.sequence(DerWriter.oid(OID_RSA), DerWriter.nul()),
                        DerWriter.octetString(der)));
            case "EC PRIVATE KEY":
                return fromPkcs8(DerWriter.sequence(DerWriter.integer(0),
                        DerWriter.sequence(DerWriter.oid(OID_EC), DerWriter.oid(sec1Curve(der))),
                        DerWriter.octetString(der)));
            case "ENCRYPTED PRIVATE KEY":
                return fromPkcs8(decrypt(der, password));
            default:
                throw new GeneralSecurityException("unsupported key type '" + label
                        + "' (expected PRIVATE KEY, RSA PRIVATE KEY, EC PRIVATE KEY or ENCRYPTED PRIVATE KEY)");
        }
    }

    /** The key algorithm of a PKCS#8 PrivateKeyInfo: SEQUENCE { version, AlgorithmIdentifier, key }. */
    static String pkcs8Algorithm(byte[] der) throws GeneralSecurityException {
        DerReader info = new DerReader(der).sequence();
        info.integer();
        String oid = info.sequence().oid();
        switch (oid) {
            case OID_RSA:
                return "RSA";
            case OID_RSA_PSS:
                return "RSASSA-PSS";
            case OID_EC:
                return "EC";
            case OID_DSA:
                return "DSA";
            case OID_ED25519:
                return "Ed25519";
            case OID_ED448:
                return "Ed448";
            default:
                throw new GeneralSecurityException("unsupported private key algorithm OID " + oid);
        }
    }

    private static PrivateKey fromPkcs8(byte[] der) throws GeneralSecurityException {
        return KeyFactory.getInstance(pkcs8Algorithm(der)).generatePrivate(new PKCS8EncodedKeySpec(der));
    }

    /** The named curve of a SEC1 key: SEQUENCE { 1, OCTET key, [0] curve OID OPTIONAL, [1] pub OPTIONAL }. */
    private static String sec1Curve(byte[] der) throws GeneralSecurityException {
        DerReader key = new DerReader(der).sequence();
        key.integer();
        key.octetString();
        if (key.peekTag() != 0xA0) {
            throw new GeneralSecurityException("EC PRIVATE KEY without curve parameters; use a PKCS#8 PRIVATE KEY");
        }
        return key.constructed(0xA0).oid();
    }

    private static byte[] decrypt(byte[] der, char[] password) throws GeneralSecurityException {
        if (password == null) {
            throw new GeneralSecurityException("the key is encrypted (ENCRYPTED PRIVATE KEY) and no password was given");
        }
        EncryptedPrivateKeyInfo info;
        try {
            info = new EncryptedPrivateKeyInfo(der);
        } catch (java.io.IOException e) {
            throw new GeneralSecurityException("malformed ENCRYPTED PRIVATE KEY: " + e.getMessage(), e);
        }
        AlgorithmParameters params = info.getAlgParameters();
        String algorithm = info.getAlgName();
        // For PBES2 the JDK names the scheme, while the cipher to ask for (e.g.
        // PBEWithHmacSHA256AndAES_256) is what its parameters print as.
        if (algorithm.equalsIgnoreCase("PBES2") || algorithm.equals(OID_PBES2)) {
            algorithm = params.toString();
        }
        try {
            Cipher cipher = Cipher.getInstance(algorithm);
            cipher.init(Cipher.DECRYPT_MODE,
                    SecretKeyFactory.getInstance(algorithm).generateSecret(new PBEKeySpec(password)), params);
            return info.getKeySpec(cipher).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new GeneralSecurityException("cannot decrypt the ENCRYPTED PRIVATE KEY (" + algorithm
                    + "): wrong password or corrupt key", e);
        }
    }
}
