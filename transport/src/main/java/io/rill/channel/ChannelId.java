package io.rill.channel;

/**
 * The identity of a {@link Channel}, unique within the JVM and very likely across processes and
 * machines (for correlating logs).
 */
public interface ChannelId extends Comparable<ChannelId> {

    /** {@return a short form for log lines; not necessarily unique} */
    String asShortText();

    /** {@return the full, unique form} */
    String asLongText();

    /**
     * {@return a new identifier: {@code machine-pid-sequence-time-random}, 8 hex digits of randomness at the
     * end}
     */
    static ChannelId newInstance() {
        return GeneratedChannelId.next();
    }

    @Override
    default int compareTo(ChannelId other) {
        return asLongText().compareTo(other.asLongText());
    }
}
