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

    /** The full text, computed once. */
    private final String longText;
    /** The random tail of {@link #longText}. */
    private final String shortText;

    private GeneratedChannelId(String longText, String shortText) {
        this.longText = longText;
        this.shortText = shortText;
    }

    static GeneratedChannelId next() {
        HexFormat hex = HexFormat.of();
        String random = hex.toHexDigits(ThreadLocalRandom.current().nextInt());
        String text = PREFIX + hex.toHexDigits(SEQUENCE.getAndIncrement()) + '-'
                + hex.toHexDigits(System.currentTimeMillis()) + '-' + random;
        return new GeneratedChannelId(text, random);
    }

    @Override
    public String asShortText() {
        return shortText;
    }

    @Override
    public String asLongText() {
        return longText;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GeneratedChannelId other && longText.equals(other.longText);
    }

    @Override
    public int hashCode() {
        return longText.hashCode();
    }

    @Override
    public String toString() {
        return shortText;
    }
}
