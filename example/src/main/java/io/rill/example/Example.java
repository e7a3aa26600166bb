package io.rill.example;

import java.util.List;

/**
 * One runnable example of the jar, picked by its {@link #name()} on the command line. It declares
 * its options and limits here, in one place: {@code --help} prints them and the parser enforces
 * them, so adding an option is adding it to {@link #options()}.
 */
interface Example {

    /** The first command-line argument that selects this example. */
    String name();

    /** One line for the jar's {@code --help}. */
    String description();

    /** The options of this example beyond {@link ExampleOptions#COMMON}. */
    default List<ExampleOption> options() {
        return List.of();
    }

    /**
     * What the example takes after its options, for its usage line (e.g. {@code "[URL ...]"}); null
     * when it takes none, so that a stray word is a usage error.
     */
    default String arguments() {
        return null;
    }

    /** What one peer can cost, one line each, for the example's {@code --help} (and its README line). */
    default List<String> limits() {
        return List.of();
    }

    /** Runs until done or until the JVM is asked to stop (SIGTERM, Ctrl-C). */
    void run(ExampleOptions options) throws Exception;
}
