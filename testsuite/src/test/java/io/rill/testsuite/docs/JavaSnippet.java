package io.rill.testsuite.docs;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One fenced Java block of a Markdown file.
 *
 * @param file  the file, as messages name it (e.g. {@code docs/migrating-from-netty.md})
 * @param line  1-based line of the opening fence
 * @param netty the block shows Netty code (fence {@code ```java netty}): never compiled
 * @param code  the lines between the fences, each ending in a newline
 */
record JavaSnippet(String file, int line, boolean netty, String code) {

    /** A line that starts a compilation unit: a package or import declaration. */
    private static final Pattern UNIT_START = Pattern.compile("^\\s*(package|import)\\s", Pattern.MULTILINE);
    /** A type declaration at the start of a line: the block declares classes, not statements. */
    private static final Pattern TYPE_DECLARATION = Pattern.compile(
            "^(?:@\\w+(?:\\.\\w+)*\\s+)*(?:(?:public|final|abstract|sealed|static)\\s+)*(class|interface|record|enum)\\s+(\\w+)",
            Pattern.MULTILINE);
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "^(?:@\\w+(?:\\.\\w+)*\\s+)*public\\s+(?:(?:final|abstract|sealed)\\s+)*(?:class|interface|record|enum)\\s+(\\w+)",
            Pattern.MULTILINE);

    /**
     * True if the block is a whole compilation unit (it has package or import declarations, or
     * declares a type at the start of a line), compiled as it is; false if it is a run of
     * statements, which get wrapped in a method.
     */
    boolean isCompilationUnit() {
        return UNIT_START.matcher(code).find() || TYPE_DECLARATION.matcher(code).find();
    }

    /** The public top-level type a compilation unit declares, which names its file; null if none. */
    String publicTypeName() {
        Matcher m = PUBLIC_TYPE.matcher(code);
        return m.find() ? m.group(1) : null;
    }

    /** "docs/guide.md:42", where the block's opening fence is. */
    String location() {
        return file + ":" + line;
    }
}
