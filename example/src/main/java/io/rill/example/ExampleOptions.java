package io.rill.example;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The options every example understands, {@code --host H --port N --transport nio|epoll|auto
 * --threads N}, plus the example-specific ones ({@code --name value}) kept by name.
 */
final class ExampleOptions {

    static final String DEFAULT_HOST = "127.0.0.1";

    final String host;
    final int port;
    final String transport;
    /** Event loop threads; 0 means Rill's default. */
    final int threads;
    private final Map<String, String> extra;

    private ExampleOptions(String host, int port, String transport, int threads, Map<String, String> extra) {
        this.host = host;
        this.port = port;
        this.transport = transport;
        this.threads = threads;
        this.extra = extra;
    }

    /** Parses {@code args}, which follow the example name; throws UsageException on bad input. */
    static ExampleOptions parse(String[] args, int defaultPort) {
        String host = DEFAULT_HOST;
        int port = defaultPort;
        String transport = "auto";
        int threads = 0;
        Map<String, String> extra = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new UsageException("unexpected argument '" + arg + "'");
            }
            String name = arg.substring(2);
            String value;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                value = args[++i];
            } else {
                value = "true"; // a flag such as --tls
            }
            switch (name) {
                case "host":
                    host = value;
                    break;
                case "port":
                    port = parseInt(name, value, 0, 65535);
                    break;
                case "transport":
                    if (!value.equals("nio") && !value.equals("epoll") && !value.equals("auto")) {
                        throw new UsageException(
                                "--transport '" + value + "' (expected: nio, epoll or auto)");
                    }
                    transport = value;
                    break;
                case "threads":
                    threads = parseInt(name, value, 0, 1024);
                    break;
                default:
                    extra.put(name, value);
            }
        }
        return new ExampleOptions(host, port, transport, threads, extra);
    }

    /** An example-specific option, or {@code defaultValue}. */
    String get(String name, String defaultValue) {
        return extra.getOrDefault(name, defaultValue);
    }

    int getInt(String name, int defaultValue, int min, int max) {
        String v = extra.get(name);
        return v == null ? defaultValue : parseInt(name, v, min, max);
    }

    /** Fails on options no part of the example asked for, so a typo is not silently ignored. */
    void rejectUnknown(String... known) {
        for (String name : extra.keySet()) {
            if (!java.util.Arrays.asList(known).contains(name)) {
                throw new UsageException("unknown option --" + name);
            }
        }
    }

    /** Bad command-line input: printed without a stack trace, exit status 2. */
    static final class UsageException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    private static int parseInt(String name, String value, int min, int max) {
        int n;
        try {
            n = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " '" + value + "' is not a number");
        }
        if (n < min || n > max) {
            throw new UsageException("--" + name + " " + n + " (expected: " + min + ".." + max + ")");
        }
        return n;
    }
}
