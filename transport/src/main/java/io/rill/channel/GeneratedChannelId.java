package io.rill.channel;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link ChannelId#newInstance()}'s identifiers. Layout of the long text (hex):
 * <pre>
 *   mmmmmmmmmmmmmmmm-pppppppp-ssssssss-tttttttttttttttt-rrrrrrrr
 *   machine (random  process  sequence  creation time    random:
 *   per JVM start)   id       in JVM    (millis)         the short text
 * </pre>
 * The machine part is random rather than a MAC address: asking the network interfaces is slow
 * and may be forbidden, and 64 random bits are as good a distinguisher.
 */
final class GeneratedChannelId implements ChannelId {

    private static final String PREFIX;
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    static {
        HexFormat hex = HexFormat.of();
        PREFIX = hex.toHexDigits(new SecureRandom().nextLong()) + '-'
                + hex.toHexDigits((int) ProcessHandle.current().pid()) + '-';
    }

    // The parts, not the text: an idle connection then holds 32 bytes of id instead of two strings
    // (about 180 bytes), and nothing is formatted for channels nobody logs or names.
    private final int sequence;
    private final long millis;
    private final int random;
    /** The long text once somebody asked for it. */
    private String longText;

    private GeneratedChannelId(int sequence, long millis, int random) {
        this.sequence = sequence;
        this.millis = millis;
        this.random = random;
    }

    static GeneratedChannelId next() {
        return new GeneratedChannelId(SEQUENCE.getAndIncrement(), System.currentTimeMillis(),
                ThreadLocalRandom.current().nextInt());
    }

    @Override
    public String asShortText() {
        return HexFormat.of().toHexDigits(random);
    }

    @Override
    public String asLongText() {
        String text = longText;
        if (text == null) {
            HexFormat hex = HexFormat.of();
            text = PREFIX + hex.toHexDigits(sequence) + '-' + hex.toHexDigits(millis) + '-' + hex.toHexDigits(random);
            longText = text; // a race computes the same text twice, harmlessly
        }
        return text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GeneratedChannelId other && sequence == other.sequence && millis == other.millis
                && random == other.random;
    }

    @Override
    public int hashCode() {
        return (sequence * 31 + Long.hashCode(millis)) * 31 + random;
    }

    @Override
    public String toString() {
        return asShortText();
    }
}
