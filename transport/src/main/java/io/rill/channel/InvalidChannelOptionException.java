package io.rill.channel;

/**
 * A channel option was given a value it cannot take: the wrong type, or a number out of range
 * (say {@code SO_RCVBUF} of -5). Thrown where the value is set, by {@code option(..)},
 * {@code childOption(..)} and {@link ChannelConfig#setOption}, so the mistake surfaces in the
 * code that made it, not later as accepted connections that are closed one by one.
 */
public final class InvalidChannelOptionException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** The option's name (options themselves are not serializable). */
    private final String option;
    /** The refused value, as text. */
    private final String value;

    /**
     * An exception naming the option, the value and what was expected.
     *
     * @param option the option
     * @param value the refused value
     * @param expected what would have been accepted
     */
    public InvalidChannelOptionException(ChannelOption<?> option, Object value, String expected) {
        super(option.name() + ": " + value + " (expected: " + expected + ')');
        this.option = option.name();
        this.value = String.valueOf(value);
    }

    /** {@return the name of the option that refused the value} */
    public String option() {
        return option;
    }

    /** {@return the refused value, as text} */
    public String value() {
        return value;
    }
}
