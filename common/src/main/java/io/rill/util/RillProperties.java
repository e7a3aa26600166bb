package io.rill.util;

/**
 * Every tuning knob of Rill, read once from system properties, each with its default and the
 * reason for it. No other class reads a {@code rill.*} system property.
 */
public final class RillProperties {

    private RillProperties() {
    }
}
