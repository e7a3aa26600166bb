package io.rill.example;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * Entry point of {@code rill-example.jar}: {@code java -jar rill-example.jar <name> [options]}.
 * {@code --help} lists the examples; {@code <name> --help} prints one example's options. Without
 * arguments it lists the examples on stderr and exits 2 (bad usage).
 */
public final class Main {

    static final List<Example> EXAMPLES = List.of(
            new HttpHelloServer(),
            new Http2HelloServer(),
            new GrpcEchoServer(),
            new Http2ClientExample(),
            new HttpFileServer(),
            new HttpEchoServer(),
            new HttpClientExample(),
            new SocksProxyServer(),
            new RedisServer(),
            new RedisClient(),
            new StompBroker(),
            new MqttBroker(),
            new MqttClientExample(),
            new HttpBlockingServer(),
            new WebSocketEchoServer(),
            new WebSocketClientExample(),
            new WebSocketChatServer(),
            new EchoServer(),
            new EchoClient(),
            new UdpEchoServer(),
            new PortUnificationServer(),
            new DiscardServer(),
            new LineChatServer(),
            new SchedulerDemo());

    private Main() {
    }

    /**
     * Runs the example named by the first argument with the rest as its options.
     *
     * @param args the example's name, then its options ({@code --help} lists them)
     * @throws Exception whatever the example could not handle
     */
    public static void main(String[] args) throws Exception {
        int status = run(args, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Runs what {@code args} ask for and returns the exit status: 0; 2 for bad usage; 1 when the
     * example cannot start (a busy port, say). Both are said in one line on {@code err}, the stack
     * trace only with {@code --debug}.
     */
    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 0) {
            // No example named is bad usage, as an unknown one is: the list, on stderr, exit 2.
            err.print(ExampleHelp.overview(EXAMPLES));
            return 2;
        }
        if (isHelp(args[0])) {
            out.print(ExampleHelp.overview(EXAMPLES));
            return 0;
        }
        Example example = EXAMPLES.stream().filter(e -> e.name().equals(args[0])).findFirst().orElse(null);
        if (example == null) {
            err.println("Unknown example '" + args[0] + "'.");
            err.print(ExampleHelp.overview(EXAMPLES));
            return 2;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        if (Arrays.stream(rest).anyMatch(Main::isHelp)) {
            out.print(ExampleHelp.of(example));
            return 0;
        }
        ExampleOptions options;
        try {
            options = ExampleOptions.parse(rest, example.options(), example.arguments() != null);
        } catch (ExampleOptions.UsageException e) {
            err.println(example.name() + ": " + e.getMessage() + " (see " + example.name() + " --help)");
            return 2;
        }
        try {
            example.run(options);
            return 0;
        } catch (ExampleOptions.UsageException e) {
            err.println(example.name() + ": " + e.getMessage() + " (see " + example.name() + " --help)");
            return 2;
        } catch (Exception e) {
            // A user who typed a busy port wants the reason, not forty lines of event-loop frames.
            err.println(example.name() + ": cannot start: " + StartupFailure.describe(e)
                    + (options.flag(ExampleOptions.DEBUG) ? "" : " (--debug prints the stack trace)"));
            if (options.flag(ExampleOptions.DEBUG)) {
                e.printStackTrace(err);
            }
            return 1;
        }
    }

    private static boolean isHelp(String arg) {
        return arg.equals("--help") || arg.equals("-h");
    }
}
