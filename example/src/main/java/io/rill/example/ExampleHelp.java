package io.rill.example;

import java.util.List;

/** Renders {@code --help}: the list of examples, and one example's options, defaults and limits. */
final class ExampleHelp {

    private ExampleHelp() {
    }

    /** The jar's help: how to run an example, and each example in one line. */
    static String overview(List<Example> examples) {
        StringBuilder sb = new StringBuilder()
                .append("Usage: java -jar rill-example.jar <example> [options]\n")
                .append("       java -jar rill-example.jar <example> --help   (its options, defaults and limits)\n\n")
                .append("Examples:\n");
        for (Example e : examples) {
            sb.append(String.format("  %-18s %s%n", e.name(), e.description()));
        }
        return sb.toString();
    }

    /** One example's help: what it does, its own options, the common ones, and its limits. */
    static String of(Example example) {
        StringBuilder sb = new StringBuilder()
                .append("Usage: java -jar rill-example.jar ").append(example.name()).append(" [options]")
                .append(example.arguments() == null ? "" : " " + example.arguments()).append('\n')
                .append(example.description()).append("\n");
        if (!example.options().isEmpty()) {
            sb.append("\nOptions:\n");
            appendOptions(sb, example.options());
        }
        sb.append("\nCommon options:\n");
        appendOptions(sb, ExampleOptions.COMMON);
        if (!example.limits().isEmpty()) {
            sb.append("\nLimits:\n");
            for (String limit : example.limits()) {
                sb.append("  ").append(limit).append('\n');
            }
        }
        return sb.append(String.format("%n  %-28s %s%n", "--help", "this text")).toString();
    }

    private static void appendOptions(StringBuilder sb, List<ExampleOption> options) {
        for (ExampleOption o : options) {
            sb.append(String.format("  %-28s %s%n", o.usage(), o.help()));
        }
    }
}
