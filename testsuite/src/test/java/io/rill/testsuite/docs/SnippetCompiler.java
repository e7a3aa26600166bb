package io.rill.testsuite.docs;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles {@link JavaSnippet}s in-process against this JVM's class path, which in the testsuite
 * holds every Rill module. A compilation unit is compiled as it is; a run of statements is put in
 * the body of a method of a class that imports the packages a Rill user usually needs, with four
 * parameters the statements may use: {@code group} ({@code EventLoopGroup}), {@code ch}
 * ({@code Channel}), {@code ctx} ({@code ChannelHandlerContext}) and {@code alloc}
 * ({@code ByteBufAllocator}). The guide's header comment states the same convention.
 *
 * <p>Each snippet is compiled on its own, into its own directory, so two snippets may declare
 * classes of the same name.
 */
final class SnippetCompiler {

    /** On-demand imports for statement snippets. java.util.concurrent is left out: its Future would clash with Rill's. */
    static final List<String> STATEMENT_IMPORTS = List.of(
            "java.io.*", "java.net.*", "java.nio.charset.*", "java.nio.file.*", "java.time.*", "java.util.*",
            "java.util.concurrent.TimeUnit",
            "io.rill.bootstrap.*", "io.rill.buffer.*", "io.rill.channel.*", "io.rill.channel.embedded.*",
            "io.rill.channel.epoll.*", "io.rill.channel.local.*", "io.rill.channel.nio.*", "io.rill.channel.socket.*",
            "io.rill.handler.codec.*", "io.rill.handler.codec.http.*", "io.rill.handler.codec.string.*",
            "io.rill.handler.logging.*", "io.rill.handler.ssl.*", "io.rill.handler.ssl.util.*",
            "io.rill.handler.timeout.*", "io.rill.util.*", "io.rill.util.concurrent.*");

    private static final String METHOD_HEAD = "    void snippet(EventLoopGroup group, Channel ch, ChannelHandlerContext ctx,"
            + " ByteBufAllocator alloc) throws Exception {";

    private final JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    private final String classPath;
    private final Path outputRoot;

    SnippetCompiler(String classPath, Path outputRoot) {
        if (compiler == null) {
            throw new IllegalStateException("no system Java compiler: the tests must run on a JDK, not a JRE");
        }
        this.classPath = classPath;
        this.outputRoot = outputRoot;
    }

    /**
     * Compiles {@code snippet}; returns one line per compiler error, each naming the Markdown file
     * and line it points at, or an empty list if the snippet compiles.
     */
    List<String> compile(JavaSnippet snippet, int index) {
        Source source = source(snippet, index);
        Path out = outputRoot.resolve("snippet" + index);
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        List<String> options = List.of("--release", "17", "-proc:none", "-classpath", classPath, "-d", out.toString());
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            StringWriter noise = new StringWriter();
            compiler.getTask(noise, files, diagnostics, options, null, List.of(source)).call();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> errors = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR) {
                errors.add(snippet.file() + ":" + markdownLine(snippet, source, d) + ": " + d.getMessage(Locale.ROOT)
                        + " (in the block opened at line " + snippet.line() + ")");
            }
        }
        return errors;
    }

    /** The Markdown line a diagnostic points at; the opening fence's line if it points into our wrapper. */
    private static long markdownLine(JavaSnippet snippet, Source source, Diagnostic<?> d) {
        long codeLine = d.getLineNumber() - source.addedLines;
        return codeLine >= 1 ? snippet.line() + codeLine : snippet.line();
    }

    private static Source source(JavaSnippet snippet, int index) {
        if (snippet.isCompilationUnit()) {
            String type = snippet.publicTypeName();
            return new Source(type != null ? type : "Snippet" + index, snippet.code(), 0);
        }
        StringBuilder wrapped = new StringBuilder();
        for (String imported : STATEMENT_IMPORTS) {
            wrapped.append("import ").append(imported).append(";\n");
        }
        String className = "Snippet" + index;
        wrapped.append("class ").append(className).append(" {\n").append(METHOD_HEAD).append('\n');
        int added = STATEMENT_IMPORTS.size() + 2;
        wrapped.append(snippet.code()).append("    }\n}\n");
        return new Source(className, wrapped.toString(), added);
    }

    /** Java source held in memory; {@code addedLines} lines of wrapper come before the snippet's first line. */
    private static final class Source extends SimpleJavaFileObject {
        private final String code;
        final int addedLines;

        Source(String typeName, String code, int addedLines) {
            super(URI.create("string:///" + typeName + Kind.SOURCE.extension), Kind.SOURCE);
            this.code = code;
            this.addedLines = addedLines;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return code;
        }
    }
}
