package io.rill.example;

/** One runnable example of the jar, picked by its {@link #name()} on the command line. */
interface Example {

    /** The first command-line argument that selects this example. */
    String name();

    /** One line for {@code --help}. */
    String description();

    /** Runs until done or until the JVM is asked to stop (SIGTERM, Ctrl-C). */
    void run(ExampleOptions options) throws Exception;
}
