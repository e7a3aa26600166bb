package io.rill.testsuite.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The fenced code blocks of a Markdown file whose info string names Java. A fence is a line that
 * starts (after indentation) with three backticks; the words after them are the info string.
 *
 * <p>Extraction is strict on purpose: a block that is never closed, or an info string that starts
 * with "java" but is neither {@code java} nor {@code java netty} (say {@code Java} or
 * {@code java-netty}), throws instead of being skipped, so a typo cannot hide a snippet from the
 * compiler.
 */
final class MarkdownSnippets {

    /** Info string of Rill code, which must compile. */
    static final String RILL = "java";
    /** Info string of Netty code, shown for comparison and never compiled. */
    static final String NETTY = "java netty";

    private MarkdownSnippets() {
    }

    /** Every Java block of {@code file}, in order; {@code shownName} is how messages name the file. */
    static List<JavaSnippet> read(Path file, String shownName) throws IOException {
        return parse(Files.readAllLines(file, StandardCharsets.UTF_8), shownName);
    }

    static List<JavaSnippet> parse(List<String> lines, String shownName) {
        List<JavaSnippet> snippets = new ArrayList<>();
        int openedAt = -1; // 1-based line of the open fence, -1 outside a block
        String info = null;
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            String stripped = lines.get(i).strip();
            if (!stripped.startsWith("```")) {
                if (openedAt > 0) {
                    body.append(lines.get(i)).append('\n');
                }
                continue;
            }
            if (openedAt < 0) {
                openedAt = i + 1;
                info = stripped.substring(3).strip().replaceAll("\\s+", " ");
                checkInfo(info, shownName, openedAt);
                body.setLength(0);
            } else {
                if (!stripped.equals("```")) {
                    throw new IllegalStateException(shownName + ":" + (i + 1) + ": a fence opens inside the block"
                            + " opened at line " + openedAt + " (close it with a bare ``` first)");
                }
                if (info.equals(RILL) || info.equals(NETTY)) {
                    snippets.add(new JavaSnippet(shownName, openedAt, info.equals(NETTY), body.toString()));
                }
                openedAt = -1;
            }
        }
        if (openedAt > 0) {
            throw new IllegalStateException(shownName + ":" + openedAt + ": the block opened here is never closed");
        }
        return snippets;
    }

    private static void checkInfo(String info, String shownName, int line) {
        boolean javaLike = info.toLowerCase(Locale.ROOT).startsWith("java");
        if (javaLike && !info.equals(RILL) && !info.equals(NETTY)) {
            throw new IllegalStateException(shownName + ":" + line + ": unknown Java fence '```" + info
                    + "'; use ```" + RILL + " (compiled) or ```" + NETTY + " (not compiled)");
        }
    }
}
