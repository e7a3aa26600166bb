package io.rill.util;

import java.time.ZoneId;
import java.util.ResourceBundle;

/**
 * Rill's logging facade: a thin wrapper over {@link System.Logger}, so Rill forces no logging
 * library on its users (a {@code System.LoggerFinder} routes it to theirs).
 *
 * <p>Messages use {@code {}} placeholders, replaced by the arguments in order; the message is
 * formatted only when the level is enabled, so a disabled {@code debug} call costs a level check
 * and the varargs array. A trailing {@link Throwable} argument that no placeholder consumes is
 * logged as the cause, stack trace included.
 *
 * <p>Logging never throws (short of a {@link VirtualMachineError}): an argument whose
 * {@code toString()} throws is shown as such, and a backend that throws (a formatter that needs a
 * file when descriptors have run out, a broken {@code LoggerFinder}) is replaced for that line by
 * {@link LogFallback}, one plain line on standard error at most once a second. An event loop that
 * reports an error must not die of the report.
 *
 * <p>It is itself a {@link System.Logger}: the JDK's default backend names as a record's source
 * the first frame on the stack that is not a {@code System.Logger}, so that frame is the Rill
 * class that logged, not this facade.
 */
public final class InternalLogger implements System.Logger {

    static {
        // The JDK's log formatter stamps each line with local time, and the zone rules are read
        // from a file (lib/tzdb.dat) on first use. Read them now: the first error logged must not
        // be the first use, since it may come when the process has no descriptor left.
        try {
            ZoneId.systemDefault().getRules();
        } catch (RuntimeException | LinkageError e) {
            // No usable zone data: the backend will fail too, and LogFallback takes over.
        }
    }

    private final String name;
    private final System.Logger logger;
    private final LogFallback fallback;

    InternalLogger(String name, System.Logger logger, LogFallback fallback) {
        this.name = name;
        this.logger = logger;
        this.fallback = fallback;
    }

    /**
     * {@return the logger named after {@code owner}'s fully qualified class name}
     *
     * @param owner the class that logs
     */
    public static InternalLogger get(Class<?> owner) {
        return get(owner.getName());
    }

    /**
     * {@return the logger of this name} For a logger that is not named after a class, such as
     * the one a {@code LoggingHandler} is given by name.
     *
     * @param name the logger's name, as given to {@link System#getLogger(String)}
     * @throws NullPointerException if {@code name} is null
     */
    public static InternalLogger get(String name) {
        if (name == null) {
            throw new NullPointerException("name");
        }
        System.Logger logger;
        try {
            logger = System.getLogger(name);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable t) {
            // A LoggerFinder that throws must not fail the class initialising this logger.
            logger = new LogFallback.Unavailable(name, t);
        }
        return new InternalLogger(name, logger, LogFallback.STDERR);
    }

    /**
     * The logger's name, as given to {@link System#getLogger(String)}.
     *
     * @return the fully qualified name of the class this logger was made for
     */
    public String name() {
        return name;
    }

    /**
     * The logger's name; the same as {@link #name()}.
     *
     * @return the fully qualified name of the class this logger was made for
     */
    @Override
    public String getName() {
        return name;
    }

    /** {@return true if TRACE records would be published} */
    public boolean isTraceEnabled() {
        return isLoggable(System.Logger.Level.TRACE);
    }

    /** {@return true if DEBUG records would be published} */
    public boolean isDebugEnabled() {
        return isLoggable(System.Logger.Level.DEBUG);
    }

    /** {@return true if INFO records would be published} */
    public boolean isInfoEnabled() {
        return isLoggable(System.Logger.Level.INFO);
    }

    /** {@return true if WARNING records would be published} */
    public boolean isWarnEnabled() {
        return isLoggable(System.Logger.Level.WARNING);
    }

    /** {@return true if ERROR records would be published} */
    public boolean isErrorEnabled() {
        return isLoggable(System.Logger.Level.ERROR);
    }

    /**
     * Logs at TRACE; {@code {}} placeholders in {@code msg} are replaced by {@code args} in order.
     *
     * @param msg the message pattern
     * @param args the values; a trailing {@link Throwable} is logged with its stack trace
     */
    public void trace(String msg, Object... args) {
        logFormatted(System.Logger.Level.TRACE, msg, args);
    }

    /**
     * Logs at DEBUG; {@code {}} placeholders in {@code msg} are replaced by {@code args} in order.
     *
     * @param msg the message pattern
     * @param args the values; a trailing {@link Throwable} is logged with its stack trace
     */
    public void debug(String msg, Object... args) {
        logFormatted(System.Logger.Level.DEBUG, msg, args);
    }

    /**
     * Logs at INFO; {@code {}} placeholders in {@code msg} are replaced by {@code args} in order.
     *
     * @param msg the message pattern
     * @param args the values; a trailing {@link Throwable} is logged with its stack trace
     */
    public void info(String msg, Object... args) {
        logFormatted(System.Logger.Level.INFO, msg, args);
    }

    /**
     * Logs at WARNING; {@code {}} placeholders in {@code msg} are replaced by {@code args} in order.
     *
     * @param msg the message pattern
     * @param args the values; a trailing {@link Throwable} is logged with its stack trace
     */
    public void warn(String msg, Object... args) {
        logFormatted(System.Logger.Level.WARNING, msg, args);
    }

    /**
     * Logs {@code msg} and the stack trace of {@code cause} at WARNING.
     *
     * @param msg the message
     * @param cause the exception to show
     */
    public void warn(String msg, Throwable cause) {
        logWithCause(System.Logger.Level.WARNING, msg, cause);
    }

    /**
     * Logs at ERROR; {@code {}} placeholders in {@code msg} are replaced by {@code args} in order.
     *
     * @param msg the message pattern
     * @param args the values; a trailing {@link Throwable} is logged with its stack trace
     */
    public void error(String msg, Object... args) {
        logFormatted(System.Logger.Level.ERROR, msg, args);
    }

    /**
     * Logs {@code msg} and the stack trace of {@code cause} at ERROR.
     *
     * @param msg the message
     * @param cause the exception to show
     */
    public void error(String msg, Throwable cause) {
        logWithCause(System.Logger.Level.ERROR, msg, cause);
    }

    /**
     * Whether the backend logs {@code level}; if the backend throws, only warnings and errors are on.
     *
     * @param level the level to ask about
     * @return whether a record at {@code level} would be logged
     */
    @Override
    public boolean isLoggable(System.Logger.Level level) {
        try {
            return logger.isLoggable(level);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable t) {
            return level.getSeverity() >= System.Logger.Level.WARNING.getSeverity();
        }
    }

    private void logFormatted(System.Logger.Level level, String msg, Object[] args) {
        if (!isLoggable(level)) {
            return;
        }
        StringBuilder out = new StringBuilder(msg.length() + 16 * args.length);
        int used = format(msg, args, out);
        Object last = args.length == 0 ? null : args[args.length - 1];
        Throwable cause = used < args.length && last instanceof Throwable t ? t : null;
        String text = out.toString();
        try {
            if (cause != null) {
                logger.log(level, text, cause);
            } else {
                // The (String) overload: the text is final, so no MessageFormat pass may touch its braces.
                logger.log(level, text);
            }
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable failure) {
            fallback.print(name, level, text, cause, failure);
        }
    }

    private void logWithCause(System.Logger.Level level, String msg, Throwable cause) {
        try {
            logger.log(level, msg, cause);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable failure) {
            fallback.print(name, level, msg, cause, failure);
        }
    }

    /**
     * Passes the record to the backend as it is (no {@code {}} formatting); a backend that throws
     * is replaced for this record by one line on standard error.
     *
     * @param level the record's level
     * @param bundle a resource bundle to localise {@code msg} with, or {@code null}
     * @param msg the message
     * @param thrown the cause, or {@code null}
     */
    @Override
    public void log(System.Logger.Level level, ResourceBundle bundle, String msg, Throwable thrown) {
        try {
            logger.log(level, bundle, msg, thrown);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable failure) {
            fallback.print(name, level, msg, thrown, failure);
        }
    }

    /**
     * Passes the record to the backend as it is: {@code format} uses
     * {@link java.text.MessageFormat} placeholders here, as {@link System.Logger} defines, not
     * {@code {}}. A backend that throws is replaced for this record by one line on standard error.
     *
     * @param level the record's level
     * @param bundle a resource bundle to localise {@code format} with, or {@code null}
     * @param format the message format
     * @param params the format's arguments
     */
    @Override
    public void log(System.Logger.Level level, ResourceBundle bundle, String format, Object... params) {
        try {
            logger.log(level, bundle, format, params);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable failure) {
            fallback.print(name, level, format, null, failure);
        }
    }

    /** Appends {@code msg} with each {@code {}} replaced by the next argument; returns how many were used. */
    static int format(String msg, Object[] args, StringBuilder out) {
        int used = 0;
        int from = 0;
        int at;
        while (used < args.length && (at = msg.indexOf("{}", from)) >= 0) {
            out.append(msg, from, at).append(safeToString(args[used++]));
            from = at + 2;
        }
        out.append(msg, from, msg.length());
        return used;
    }

    /** {@code String.valueOf(arg)}, or a note saying its {@code toString()} threw: a log call must not fail. */
    static String safeToString(Object arg) {
        try {
            return String.valueOf(arg);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable t) {
            return "[" + arg.getClass().getName() + ".toString() threw " + LogFallback.describe(t) + ']';
        }
    }
}
