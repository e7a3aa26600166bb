package io.rill.testsuite.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;

/**
 * Compiles a program the migration guide shows as a ```java block and loads it, so a test can run
 * exactly what a reader copies. The program is found by the public class its block declares.
 */
final class GuidePrograms {

    private static final String GUIDE = "docs/migrating-from-netty.md";

    private GuidePrograms() {
    }

    /** Compiles the guide's block that declares {@code public ... class publicType} into {@code dir} and loads it. */
    static Class<?> load(String publicType, Path dir) throws IOException, ClassNotFoundException {
        List<JavaSnippet> snippets = MarkdownSnippets.read(DocSnippetsCompileTest.repositoryRoot().resolve(GUIDE), GUIDE);
        List<JavaSnippet> matching = snippets.stream()
                .filter(s -> !s.netty() && publicType.equals(s.publicTypeName())).toList();
        assertEquals(1, matching.size(), GUIDE + " should hold one block declaring public class " + publicType);
        JavaSnippet program = matching.get(0);
        int index = snippets.indexOf(program);
        List<String> errors = new SnippetCompiler(System.getProperty("java.class.path"), dir).compile(program, index);
        assertEquals(List.of(), errors, program.location());
        // A child of the test's loader: the program sees the same Rill classes as the test.
        URLClassLoader loader = new URLClassLoader(new URL[] {dir.resolve("snippet" + index).toUri().toURL()},
                GuidePrograms.class.getClassLoader());
        return loader.loadClass(publicType);
    }

    /** Calls {@code program}'s public static method {@code name}, unwrapping what it throws. */
    static Object call(Class<?> program, String name, Class<?>[] types, Object... args) throws Exception {
        Method method = program.getMethod(name, types);
        try {
            return method.invoke(null, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }
}
