package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Path traversal, ranges and escaping of the file server, without a socket. */
class FileRequestsTest {

    @TempDir
    Path tmp;
    Path root;

    @BeforeEach
    void tree() throws IOException {
        root = Files.createDirectories(tmp.resolve("www")).toRealPath();
        Files.writeString(root.resolve("a.txt"), "hello");
        Files.createDirectories(root.resolve("sub dir"));
        Files.writeString(root.resolve("sub dir/b.txt"), "b");
        Files.writeString(root.resolve(".secret"), "s");
        Files.writeString(tmp.resolve("outside.txt"), "outside");
        Files.createSymbolicLink(root.resolve("out-link"), tmp.resolve("outside.txt"));
        Files.createSymbolicLink(root.resolve("in-link"), root.resolve("a.txt"));
    }

    @Test
    void resolvesFilesAndDirectoriesInsideTheRoot() throws Exception {
        assertEquals(root.resolve("a.txt"), FileRequests.resolve(root, "/a.txt?x=1#f"));
        assertEquals(root.resolve("sub dir/b.txt"), FileRequests.resolve(root, "/sub%20dir/b.txt"));
        assertEquals(root, FileRequests.resolve(root, "/"));
        assertEquals(root.resolve("a.txt"), FileRequests.resolve(root, "//a.txt"));
        assertEquals(root.resolve("a.txt"), FileRequests.resolve(root, "/in-link"), "a link inside the root is fine");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/../outside.txt", "/%2e%2e/outside.txt", "/%2E%2e/outside.txt", "/sub%20dir/../../outside.txt",
            "/..%2foutside.txt", "/sub%20dir/%2e%2e/%2e%2e/outside.txt", "/out-link", "/.secret", "/./a.txt",
            "//etc/passwd", "/missing"})
    void refusesEverythingOutsideTheRootAs404(String target) {
        FileRequests.Refused e = assertThrows(FileRequests.Refused.class, () -> FileRequests.resolve(root, target));
        assertEquals(404, e.status, e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"a.txt", "http://host/a.txt", "/a%00.txt", "/a%5c..%5coutside.txt", "/%zz", "*"})
    void refusesMalformedTargetsAs400(String target) {
        FileRequests.Refused e = assertThrows(FileRequests.Refused.class, () -> FileRequests.resolve(root, target));
        assertEquals(400, e.status, e.getMessage());
    }

    @Test
    void parsesSingleRanges() {
        assertArrayEquals(new long[] {0, 4}, FileRequests.range("bytes=0-4", 10));
        assertArrayEquals(new long[] {5, 9}, FileRequests.range("bytes=5-", 10));
        assertArrayEquals(new long[] {7, 9}, FileRequests.range("bytes=-3", 10));
        assertArrayEquals(new long[] {0, 9}, FileRequests.range("bytes=-30", 10));
        assertArrayEquals(new long[] {2, 9}, FileRequests.range("bytes=2-100", 10));
        assertArrayEquals(new long[] {-1, -1}, FileRequests.range("bytes=10-", 10));
        assertArrayEquals(new long[] {-1, -1}, FileRequests.range("bytes=-0", 10));
        assertArrayEquals(new long[] {-1, -1}, FileRequests.range("bytes=0-", 0));
        for (String ignored : new String[] {null, "items=0-1", "bytes=0-1,3-4", "bytes=5-2", "bytes=a-b", "bytes=-",
                "bytes=99999999999999999999-"}) {
            assertNull(FileRequests.range(ignored, 10), ignored);
        }
    }

    @Test
    void escapesHtmlAndKnowsCommonTypes() {
        assertEquals("&lt;script&gt;&amp;&quot;&#39;", FileRequests.escapeHtml("<script>&\"'"));
        assertEquals("text/html; charset=utf-8", FileRequests.contentType(Path.of("x.HTML")));
        assertEquals("application/octet-stream", FileRequests.contentType(Path.of("noext")));
    }
}
