package io.rill.handler.ssl.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

class SelfSignedCertificateTest {

    private static final Path TMP = Path.of(System.getProperty("java.io.tmpdir"));

    @Test
    void writesNoFileUntilOneIsAskedFor() throws IOException {
        Set<Path> before = certificateFolders();
        SelfSignedCertificate cert = new SelfSignedCertificate();
        assertEquals("CN=localhost", cert.certificate().getSubjectX500Principal().getName());
        assertTrue(cert.privateKeyPem().startsWith("-----BEGIN PRIVATE KEY-----"));
        assertEquals(before, certificateFolders(), "a certificate used only in memory wrote files");
        cert.delete(); // nothing to delete: harmless
    }

    @Test
    void writesBothFilesOwnerOnlyOnFirstAskAndDeleteRemovesTheirFolder() throws IOException {
        SelfSignedCertificate cert = new SelfSignedCertificate();
        Path certificate = cert.certificateFile().toPath();
        Path key = cert.privateKeyFile().toPath();
        assertEquals(certificate.getParent(), key.getParent());
        assertEquals(cert.certificatePem(), Files.readString(certificate));
        assertEquals(cert.privateKeyPem(), Files.readString(key));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)));
        assertEquals(certificate, cert.certificateFile().toPath(), "asked again: the same file");
        cert.delete();
        assertFalse(Files.exists(certificate.getParent()));
    }

    private static Set<Path> certificateFolders() throws IOException {
        try (Stream<Path> entries = Files.list(TMP)) {
            return entries.filter(p -> p.getFileName().toString().startsWith("rill-selfsigned")).collect(Collectors.toSet());
        }
    }
}
