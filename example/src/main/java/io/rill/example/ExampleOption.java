package io.rill.example;

/**
 * One command-line option of an example, declared once with everything {@code --help} prints and
 * the parser checks: its name, what its value looks like, its default and, for numbers, the
 * range it must fall in. An example lists its own in {@link Example#options()}; the ones every
 * example takes are in {@link ExampleOptions#COMMON}.
 */
final class ExampleOption {

    /** What follows the name on the command line. */
    enum Kind {
        /** Nothing (or {@code =true}/{@code =false}): on when given. */
        FLAG,
        /** A whole number within [min, max]. */
        NUMBER,
        /** Any text. */
        TEXT
    }

    final String name;
    final Kind kind;
    /** How help shows the value: {@code N}, {@code BYTES}, {@code PATH}; empty for a flag. */
    final String valueName;
    /** The value when the option is not given, as it would be typed; null when there is none. */
    final String defaultValue;
    final long min;
    final long max;
    final String description;

    private ExampleOption(String name, Kind kind, String valueName, String defaultValue, long min, long max,
            String description) {
        this.name = name;
        this.kind = kind;
        this.valueName = valueName;
        this.defaultValue = defaultValue;
        this.min = min;
        this.max = max;
        this.description = description;
    }

    /** An on/off switch, off unless given. */
    static ExampleOption flag(String name, String description) {
        return new ExampleOption(name, Kind.FLAG, "", "false", 0, 0, description);
    }

    /** A whole number from {@code min} to {@code max}, {@code defaultValue} unless given. */
    static ExampleOption number(String name, String valueName, long defaultValue, long min, long max,
            String description) {
        if (defaultValue < min || defaultValue > max) {
            throw new IllegalArgumentException("--" + name + ": default " + defaultValue + " is outside " + min + ".." + max);
        }
        return new ExampleOption(name, Kind.NUMBER, valueName, Long.toString(defaultValue), min, max, description);
    }

    /** Free text, {@code defaultValue} (null: none) unless given. */
    static ExampleOption text(String name, String valueName, String defaultValue, String description) {
        return new ExampleOption(name, Kind.TEXT, valueName, defaultValue, 0, 0, description);
    }

    /** {@code --name VALUE}, as the usage column shows it. */
    String usage() {
        return kind == Kind.FLAG ? "--" + name : "--" + name + " " + valueName;
    }

    /** The description with the default and the range: {@code "... (default 1024; 16..1048576)"}. */
    String help() {
        if (kind == Kind.FLAG) {
            return description + " (default off)";
        }
        String range = kind == Kind.NUMBER ? "; " + min + ".." + max : "";
        String dflt = defaultValue == null ? "no default" : "default " + defaultValue;
        return description + " (" + dflt + range + ")";
    }

    /** {@code value} as this option's number, or a UsageException naming the option and the range. */
    long parseNumber(String value) {
        long n;
        try {
            n = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new ExampleOptions.UsageException("--" + name + " '" + value + "' is not a number");
        }
        if (n < min || n > max) {
            throw new ExampleOptions.UsageException("--" + name + " " + n + " (expected: " + min + ".." + max + ")");
        }
        return n;
    }
}
