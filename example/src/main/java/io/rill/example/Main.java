package io.rill.example;

import java.util.List;

/**
 * Entry point of {@code rill-example.jar}: {@code java -jar rill-example.jar <name> [options]}.
 * {@code --help} lists the examples.
 */
public final class Main {

    private static final List<Example> EXAMPLES = List.of(
            new HttpHelloServer(),
            new HttpFileServer(),
            new HttpEchoServer(),
            new HttpClientExample(),
            new EchoServer(),
            new PortUnificationServer(),
            new EchoClient(),
            new DiscardServer(),
            new LineChatServer(),
            new PortUnificationServer(),
            new SchedulerDemo());

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
            usage();
            return;
        }
        Example example = EXAMPLES.stream().filter(e -> e.name().equals(args[0])).findFirst().orElse(null);
        if (example == null) {
            System.err.println("Unknown example '" + args[0] + "'.");
            usage();
            System.exit(2);
            return;
        }
        try {
            example.run(ExampleOptions.parse(java.util.Arrays.copyOfRange(args, 1, args.length), 8080));
        } catch (ExampleOptions.UsageException e) {
            System.err.println(example.name() + ": " + e.getMessage() + " (see --help)");
            System.exit(2);
        }
    }

    private static void usage() {
        System.out.println("Usage: java -jar rill-example.jar <example> [--host H] [--port N]"
                + " [--transport nio|epoll|auto] [--threads N] [example options]");
        System.out.println();
        System.out.println("Examples:");
        for (Example e : EXAMPLES) {
            System.out.printf("  %-18s %s%n", e.name(), e.description());
        }
    }
}
