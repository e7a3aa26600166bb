package io.rill.util;

import java.io.PrintStream;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Where a log line goes when the logging backend throws: one plain line on standard error, at
 * most one per second, with how many lines were dropped since the last one. It needs nothing
 * but {@link StringBuilder} and an already open stream, so it works when the backend failed for
 * want of a descriptor or a class; and it is rate-limited, so a backend that fails on every call
 * cannot turn a burst of errors into a burst of writes to a terminal.
 */
final class LogFallback {

    /** The one used by every {@link InternalLogger}; loaded with it, at start-up. */
    static final LogFallback STDERR = new LogFallback(() -> System.err, System::nanoTime);

    private final Supplier<PrintStream> out;
    private final LongSupplier nanoClock;
    private final LogRateLimit limit = new LogRateLimit(1_000_000_000L);

    LogFallback(Supplier<PrintStream> out, LongSupplier nanoClock) {
        this.out = out;
        this.nanoClock = nanoClock;
    }

    /** Prints {@code message} (and its {@code cause}, if any) unless a line was printed less than a second ago. */
    void print(String logger, System.Logger.Level level, String message, Throwable cause, Throwable backendFailure) {
        long droppedBefore = limit.tryLog(nanoClock.getAsLong());
        if (droppedBefore < 0) {
            return;
        }
        StringBuilder line = new StringBuilder(128 + message.length())
                .append(level.getName()).append(' ').append(logger).append(": ").append(message);
        if (cause != null) {
            line.append(" [").append(describe(cause)).append(']');
        }
        line.append(" (the logging backend failed: ").append(describe(backendFailure));
        if (droppedBefore > 0) {
            line.append("; ").append(droppedBefore).append(" earlier line(s) dropped");
        }
        line.append(')');
        try {
            out.get().println(line);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable ignored) {
            // Nowhere left to report to; the caller must still carry on.
        }
    }

    /** "class: message", even if {@code getMessage()} throws. */
    static String describe(Throwable t) {
        String text;
        try {
            text = t.getMessage();
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            text = "(getMessage() threw " + e.getClass().getName() + ')';
        }
        return text == null ? t.getClass().getName() : t.getClass().getName() + ": " + text;
    }

    /** Stands in for a logger the {@code LoggerFinder} could not make: every call fails, so every line falls back. */
    static final class Unavailable implements System.Logger {
        private final String name;
        private final Throwable cause;

        Unavailable(String name, Throwable cause) {
            this.name = name;
            this.cause = cause;
        }

        @Override
        public String getName() {
            return name;
        }

        @Override
        public boolean isLoggable(Level level) {
            return level.getSeverity() >= Level.WARNING.getSeverity();
        }

        @Override
        public void log(Level level, java.util.ResourceBundle bundle, String msg, Throwable thrown) {
            throw new IllegalStateException("no logger: System.getLogger(\"" + name + "\") failed", cause);
        }

        @Override
        public void log(Level level, java.util.ResourceBundle bundle, String format, Object... params) {
            throw new IllegalStateException("no logger: System.getLogger(\"" + name + "\") failed", cause);
        }
    }
}
