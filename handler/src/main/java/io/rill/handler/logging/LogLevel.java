package io.rill.handler.logging;

import io.rill.util.InternalLogger;

/** The level {@link LoggingHandler} logs at, mapped onto {@link System.Logger.Level}. */
public enum LogLevel {
    /** {@link System.Logger.Level#TRACE}. */
    TRACE,
    /** {@link System.Logger.Level#DEBUG}. */
    DEBUG,
    /** {@link System.Logger.Level#INFO}. */
    INFO,
    /** {@link System.Logger.Level#WARNING}. */
    WARN,
    /** {@link System.Logger.Level#ERROR}. */
    ERROR;

    boolean isEnabled(InternalLogger logger) {
        return switch (this) {
            case TRACE -> logger.isTraceEnabled();
            case DEBUG -> logger.isDebugEnabled();
            case INFO -> logger.isInfoEnabled();
            case WARN -> logger.isWarnEnabled();
            case ERROR -> logger.isErrorEnabled();
        };
    }

    /** Logs {@code message} as is; a non-null {@code cause} is logged with its stack trace. */
    void log(InternalLogger logger, String message, Throwable cause) {
        // The message is final text: pass it as an argument so braces in it are never placeholders.
        Object[] args = cause == null ? new Object[] {message} : new Object[] {message, cause};
        switch (this) {
            case TRACE -> logger.trace("{}", args);
            case DEBUG -> logger.debug("{}", args);
            case INFO -> logger.info("{}", args);
            case WARN -> logger.warn("{}", args);
            case ERROR -> logger.error("{}", args);
        }
    }
}
