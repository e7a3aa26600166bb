package io.rill.example;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An example's parsed command line: the options every example understands ({@link #COMMON}) as
 * fields, and its own, declared in {@link Example#options()}, by their declaration. Parsing
 * checks each value against its declaration, so a typo or a value out of range fails at start-up
 * with a {@link UsageException} instead of being ignored.
 */
final class ExampleOptions {

    static final String DEFAULT_HOST = "127.0.0.1";

    static final ExampleOption HOST = ExampleOption.text("host", "H", DEFAULT_HOST,
            "address to listen on (servers) or connect to (clients)");
    static final ExampleOption PORT = ExampleOption.number("port", "N", 8080, 0, 65535,
            "TCP port; 0 lets a server pick a free one (it prints which)");
    static final ExampleOption TRANSPORT = ExampleOption.text("transport", "nio|epoll|auto", "auto",
            "I/O transport; auto is epoll where it loads, else NIO");
    static final ExampleOption THREADS = ExampleOption.number("threads", "N", 0, 0, 1024,
            "event loop threads; 0 for Rill's default (twice the cores)");
    static final ExampleOption DEBUG = ExampleOption.flag("debug",
            "a failure to start prints its stack trace, not only the one line naming its cause");
    /** Taken by every example, before its own. */
    static final List<ExampleOption> COMMON = List.of(HOST, PORT, TRANSPORT, THREADS, DEBUG);

    final String host;
    final int port;
    final String transport;
    /** Event loop threads; 0 means Rill's default. */
    final int threads;
    /** The values given, by option name; an option not here has its default. */
    private final Map<String, String> given;
    /** The words after the options that are not options, for an example that takes them. */
    private final List<String> arguments;

    private ExampleOptions(Map<String, String> given, List<String> arguments) {
        this.given = given;
        this.arguments = List.copyOf(arguments);
        this.host = text(HOST);
        this.port = intValue(PORT);
        this.transport = text(TRANSPORT);
        this.threads = intValue(THREADS);
    }

    /**
     * Parses {@code args}, which follow the example name, against {@link #COMMON} and
     * {@code declared}; throws UsageException on an unknown option or a bad value.
     */
    static ExampleOptions parse(String[] args, List<ExampleOption> declared) {
        return parse(args, declared, false);
    }

    /** As {@link #parse(String[], List)}; with {@code takesArguments}, words that are not options are collected. */
    static ExampleOptions parse(String[] args, List<ExampleOption> declared, boolean takesArguments) {
        List<String> arguments = new java.util.ArrayList<>();
        Map<String, ExampleOption> known = new HashMap<>();
        for (ExampleOption o : COMMON) {
            known.put(o.name, o);
        }
        for (ExampleOption o : declared) {
            known.put(o.name, o);
        }
        Map<String, String> given = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (takesArguments && !arg.startsWith("-")) {
                arguments.add(arg);
                continue;
            }
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new UsageException("unexpected argument '" + arg + "'");
            }
            String name = arg.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            ExampleOption option = known.get(name);
            if (option == null) {
                throw new UsageException("unknown option --" + name);
            }
            if (value == null) {
                if (option.kind == ExampleOption.Kind.FLAG) {
                    value = "true";
                } else if (i + 1 < args.length) {
                    value = args[++i];
                } else {
                    throw new UsageException("--" + name + " needs a value: " + option.usage());
                }
            }
            check(option, value);
            given.put(name, value);
        }
        return new ExampleOptions(given, arguments);
    }

    private static void check(ExampleOption option, String value) {
        switch (option.kind) {
            case NUMBER -> option.parseNumber(value);
            case FLAG -> {
                if (!value.equals("true") && !value.equals("false")) {
                    throw new UsageException("--" + option.name + "=" + value + " (expected: true or false)");
                }
            }
            case TEXT -> {
                if (option == TRANSPORT && !value.equals("nio") && !value.equals("epoll") && !value.equals("auto")) {
                    throw new UsageException("--transport '" + value + "' (expected: nio, epoll or auto)");
                }
            }
        }
    }

    /** The words that were not options, in order; empty unless the example takes arguments. */
    List<String> arguments() {
        return arguments;
    }

    /** A text option's value, its default if not given (null when it has none). */
    String text(ExampleOption option) {
        return given.getOrDefault(option.name, option.defaultValue);
    }

    long number(ExampleOption option) {
        return option.parseNumber(text(option));
    }

    /** A number option declared with an {@code int} range. */
    int intValue(ExampleOption option) {
        return Math.toIntExact(number(option));
    }

    boolean flag(ExampleOption option) {
        return Boolean.parseBoolean(text(option));
    }

    /** Bad command-line input: printed without a stack trace, exit status 2. */
    static final class UsageException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }
}
