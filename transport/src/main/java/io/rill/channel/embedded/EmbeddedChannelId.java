package io.rill.channel.embedded;

import io.rill.channel.ChannelId;

/** The id of embedded channels: one constant, so test output stays the same from run to run. */
final class EmbeddedChannelId implements ChannelId {

    static final EmbeddedChannelId INSTANCE = new EmbeddedChannelId();

    private EmbeddedChannelId() {
    }

    @Override
    public String asShortText() {
        return "embedded";
    }

    @Override
    public String asLongText() {
        return "embedded";
    }

    @Override
    public String toString() {
        return "embedded";
    }
}
