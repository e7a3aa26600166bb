package io.rill.testsuite.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every ```java block of README.md and docs/migrating-from-netty.md compiles against the Rill
 * modules (blocks fenced ```java netty show Netty code and are skipped). The guide's header comment
 * explains the convention to writers; {@link SnippetCompiler} implements it.
 */
class DocSnippetsCompileTest {

    private static final String GUIDE = "docs/migrating-from-netty.md";
    private static final String README = "README.md";

    /**
     * How many blocks each file holds. A fence broken so that the extractor no longer sees a block
     * changes these counts; update them when you add or remove a snippet.
     */
    private static final int GUIDE_RILL_SNIPPETS = 19;
    private static final int GUIDE_NETTY_SNIPPETS = 3;
    private static final int README_RILL_SNIPPETS = 0;
    private static final int README_NETTY_SNIPPETS = 0;

    @TempDir
    Path classes;

    @Test
    void everyRillSnippetOfTheGuideCompiles() throws IOException {
        assertAllCompile(snippets(GUIDE));
    }

    @Test
    void everyRillSnippetOfTheReadmeCompiles() throws IOException {
        assertAllCompile(snippets(README));
    }

    @Test
    void theExtractorFindsEverySnippet() throws IOException {
        List<JavaSnippet> guide = snippets(GUIDE);
        List<JavaSnippet> readme = snippets(README);
        assertEquals(GUIDE_RILL_SNIPPETS, count(guide, false), GUIDE + ": ```java blocks");
        assertEquals(GUIDE_NETTY_SNIPPETS, count(guide, true), GUIDE + ": ```java netty blocks");
        assertEquals(README_RILL_SNIPPETS, count(readme, false), README + ": ```java blocks");
        assertEquals(README_NETTY_SNIPPETS, count(readme, true), README + ": ```java netty blocks");
    }

    @Test
    void aMisspelledJavaFenceFailsInsteadOfBeingSkipped() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> MarkdownSnippets.parse(List.of("text", "```Java", "int x = 1;", "```"), "doc.md"));
        assertTrue(e.getMessage().startsWith("doc.md:2: unknown Java fence '```Java'"), e.getMessage());
        assertThrows(IllegalStateException.class,
                () -> MarkdownSnippets.parse(List.of("```java-netty", "x", "```"), "doc.md"));
    }

    @Test
    void anUnclosedBlockFailsNamingItsLine() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> MarkdownSnippets.parse(List.of("# title", "", "```java", "int x = 1;"), "doc.md"));
        assertEquals("doc.md:3: the block opened here is never closed", e.getMessage());
    }

    @Test
    void blocksAreTakenAsUnitsOrStatementsAndNettyBlocksAreMarked() {
        List<JavaSnippet> found = MarkdownSnippets.parse(List.of(
                "```java", "import io.rill.channel.Channel;", "public class A {}", "```",
                "```java", "int x = 1;", "```",
                "```java netty", "EventLoopGroup g = new NioEventLoopGroup();", "```",
                "```bash", "mvn verify", "```"), "doc.md");
        assertEquals(3, found.size());
        assertTrue(found.get(0).isCompilationUnit());
        assertEquals("A", found.get(0).publicTypeName());
        assertFalse(found.get(1).isCompilationUnit());
        assertEquals(5, found.get(1).line());
        assertTrue(found.get(2).netty());
    }

    @Test
    void aCompileErrorNamesTheFileAndTheMarkdownLine() {
        // Line 1 of the block (Markdown line 11) is fine, line 2 (Markdown line 12) is not.
        JavaSnippet bad = new JavaSnippet("doc.md", 10, false,
                "ByteBuf buf = alloc.buffer();\nbuf.noSuchMethod();\n");
        List<String> errors = compiler().compile(bad, 0);
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).startsWith("doc.md:12: "), errors.get(0));
        assertTrue(errors.get(0).contains("noSuchMethod"), errors.get(0));
    }

    private void assertAllCompile(List<JavaSnippet> snippets) {
        SnippetCompiler compiler = compiler();
        List<String> errors = new ArrayList<>();
        for (int i = 0; i < snippets.size(); i++) {
            if (!snippets.get(i).netty()) {
                errors.addAll(compiler.compile(snippets.get(i), i));
            }
        }
        if (!errors.isEmpty()) {
            fail(errors.size() + " compile error(s) in documentation snippets:\n" + String.join("\n", errors));
        }
    }

    private SnippetCompiler compiler() {
        return new SnippetCompiler(System.getProperty("java.class.path"), classes);
    }

    private static long count(List<JavaSnippet> snippets, boolean netty) {
        return snippets.stream().filter(s -> s.netty() == netty).count();
    }

    private static List<JavaSnippet> snippets(String relative) throws IOException {
        return MarkdownSnippets.read(repositoryRoot().resolve(relative), relative);
    }

    /** Maven runs tests in the module's folder; the documents live in the reactor's root above it. */
    static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(README)) && Files.isDirectory(dir.resolve("docs"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no README.md with a docs/ folder above " + Path.of("").toAbsolutePath());
    }
}
