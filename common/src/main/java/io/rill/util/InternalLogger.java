package io.rill.util;

import java.util.Objects;

/**
 * Rill's logging facade: a thin wrapper over {@link System.Logger}, so Rill forces no logging
 * library on its users (a {@code System.LoggerFinder} routes it to theirs).
 *
 * <p>Messages use {@code {}} placeholders, replaced by the arguments in order; the message is
 * formatted only when the level is enabled, so a disabled {@code debug} call costs a level check
 * and the varargs array. A trailing {@link Throwable} argument that no placeholder consumes is
 * logged as the cause, stack trace included.
 */
public final class InternalLogger {

    private final System.Logger logger;

    private InternalLogger(System.Logger logger) {
        this.logger = logger;
    }

    /** The logger named after {@code owner}'s fully qualified class name. */
    public static InternalLogger get(Class<?> owner) {
        return new InternalLogger(System.getLogger(owner.getName()));
    }

    /** The logger's name, as given to {@link System#getLogger(String)}. */
    public String name() {
        return logger.getName();
    }

    public boolean isTraceEnabled() {
        return logger.isLoggable(System.Logger.Level.TRACE);
    }

    public boolean isDebugEnabled() {
        return logger.isLoggable(System.Logger.Level.DEBUG);
    }

    public boolean isInfoEnabled() {
        return logger.isLoggable(System.Logger.Level.INFO);
    }

    public boolean isWarnEnabled() {
        return logger.isLoggable(System.Logger.Level.WARNING);
    }

    public boolean isErrorEnabled() {
        return logger.isLoggable(System.Logger.Level.ERROR);
    }

    public void trace(String msg, Object... args) {
        log(System.Logger.Level.TRACE, msg, args);
    }

    public void debug(String msg, Object... args) {
        log(System.Logger.Level.DEBUG, msg, args);
    }

    public void info(String msg, Object... args) {
        log(System.Logger.Level.INFO, msg, args);
    }

    public void warn(String msg, Object... args) {
        log(System.Logger.Level.WARNING, msg, args);
    }

    public void warn(String msg, Throwable cause) {
        logger.log(System.Logger.Level.WARNING, msg, cause);
    }

    public void error(String msg, Object... args) {
        log(System.Logger.Level.ERROR, msg, args);
    }

    public void error(String msg, Throwable cause) {
        logger.log(System.Logger.Level.ERROR, msg, cause);
    }

    private void log(System.Logger.Level level, String msg, Object[] args) {
        if (!logger.isLoggable(level)) {
            return;
        }
        StringBuilder out = new StringBuilder(msg.length() + 16 * args.length);
        int used = format(msg, args, out);
        Object last = args.length == 0 ? null : args[args.length - 1];
        if (used < args.length && last instanceof Throwable cause) {
            logger.log(level, out.toString(), cause);
        } else {
            // The (String) overload: the text is final, so no MessageFormat pass may touch its braces.
            logger.log(level, out.toString());
        }
    }

    /** Appends {@code msg} with each {@code {}} replaced by the next argument; returns how many were used. */
    static int format(String msg, Object[] args, StringBuilder out) {
        int used = 0;
        int from = 0;
        int at;
        while (used < args.length && (at = msg.indexOf("{}", from)) >= 0) {
            out.append(msg, from, at).append(Objects.toString(args[used++]));
            from = at + 2;
        }
        out.append(msg, from, msg.length());
        return used;
    }
}
