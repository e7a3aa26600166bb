package io.rill.handler.codec;

import java.util.Objects;

/**
 * The outcome of decoding one message: {@link #SUCCESS}, {@link #UNFINISHED} (the message is
 * still being decoded, e.g. its body has not arrived) or a failure with its cause. Immutable;
 * the two shared instances cover the common cases without allocation.
 */
public final class DecoderResult {

    /** A placeholder cause for {@link #UNFINISHED}; never thrown. */
    private static final Throwable SIGNAL_UNFINISHED = new Throwable("UNFINISHED", null, false, false) { };
    private static final Throwable SIGNAL_SUCCESS = new Throwable("SUCCESS", null, false, false) { };

    /** The message is still being decoded (its body has not all arrived yet). */
    public static final DecoderResult UNFINISHED = new DecoderResult(SIGNAL_UNFINISHED);
    /** The message was decoded completely and is valid. */
    public static final DecoderResult SUCCESS = new DecoderResult(SIGNAL_SUCCESS);

    /** The failure, or one of the two signals. */
    private final Throwable cause;

    private DecoderResult(Throwable cause) {
        this.cause = cause;
    }

    /**
     * A failed result caused by {@code cause}.
     *
     * @param cause why decoding failed; not null
     * @return a new failed result
     * @throws NullPointerException if {@code cause} is null
     */
    public static DecoderResult failure(Throwable cause) {
        return new DecoderResult(Objects.requireNonNull(cause, "cause"));
    }

    /**
     * True unless the message is still being decoded.
     *
     * @return false while the message is still being decoded
     */
    public boolean isFinished() {
        return cause != SIGNAL_UNFINISHED;
    }

    /**
     * Whether the message was decoded completely and is valid.
     *
     * @return true for {@link #SUCCESS}
     */
    public boolean isSuccess() {
        return cause == SIGNAL_SUCCESS;
    }

    /**
     * Whether decoding failed; {@link #cause()} then says why.
     *
     * @return true for a result made by {@link #failure(Throwable)}
     */
    public boolean isFailure() {
        return cause != SIGNAL_SUCCESS && cause != SIGNAL_UNFINISHED;
    }

    /**
     * Why decoding failed, or null if it did not.
     *
     * @return the cause of a failure, or null for {@link #SUCCESS} and {@link #UNFINISHED}
     */
    public Throwable cause() {
        return isFailure() ? cause : null;
    }

    @Override
    public String toString() {
        if (!isFinished()) {
            return "unfinished";
        }
        return isSuccess() ? "success" : "failure(" + cause + ")";
    }
}
