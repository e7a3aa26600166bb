package io.rill.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A jar on the module path that nothing requires, such as netty-tcnative-boringssl-static's, is
 * left out of the module graph; its {@code META-INF/native/} files are still found. These tests run
 * on the class path, so the jars they make are on no real module path and are never resolved.
 */
class UnresolvedModulesTest {

    private static final String RESOURCE = "META-INF/native/" + System.mapLibraryName("rill_test_unresolved");

    @TempDir
    Path temp;

    @Test
    void findsAResourceInAJarOfTheModulePathThatNothingRequires() throws Exception {
        Path other = jar("rill-test-other.jar", "META-INF/native/libsomething-else.so", "no");
        Path carrier = jar("rill-test-carrier.jar", RESOURCE, "library bytes");
        List<String> problems = new ArrayList<>();
        Optional<URL> url = UnresolvedModules.findResource(RESOURCE, other + File.pathSeparator + carrier, problems);
        assertTrue(url.isPresent(), "not found; problems: " + problems);
        try (InputStream in = url.get().openStream()) {
            assertEquals("library bytes", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void findsNothingWhereNoModuleHasTheResource() throws Exception {
        Path other = jar("rill-test-other.jar", "META-INF/native/libsomething-else.so", "no");
        List<String> problems = new ArrayList<>();
        assertEquals(Optional.empty(), UnresolvedModules.findResource(RESOURCE, other.toString(), problems));
        assertEquals(Optional.empty(), UnresolvedModules.findResource(RESOURCE, null, problems));
    }

    @Test
    void tellsAModuleOnTheModulePathFromAResolvedOrAnAbsentOne() throws Exception {
        // An automatic module: its name comes from the file name.
        String modulePath = jar("rill-test-carrier.jar", RESOURCE, "x").toString();
        assertTrue(UnresolvedModules.isObservableButUnresolved("rill.test.carrier", modulePath));
        assertFalse(UnresolvedModules.isObservableButUnresolved("java.base", modulePath), "resolved");
        assertFalse(UnresolvedModules.isObservableButUnresolved("rill.test.absent", modulePath), "absent");
    }

    private Path jar(String name, String entry, String content) throws IOException {
        Path jar = temp.resolve(name);
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            out.putNextEntry(new JarEntry(entry));
            out.write(content.getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return jar;
    }
}
