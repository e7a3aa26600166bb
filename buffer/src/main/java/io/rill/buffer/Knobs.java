package io.rill.buffer;

/** Temporary until RillProperties gains the buffer section. */
final class Knobs {
    static final boolean CHECK_BOUNDS = true;
    static final boolean CHECK_ACCESSIBLE = true;
    private Knobs() {
    }
}
