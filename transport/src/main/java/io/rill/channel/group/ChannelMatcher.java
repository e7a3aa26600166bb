package io.rill.channel.group;

import java.util.Objects;

import io.rill.channel.Channel;

/**
 * Selects the channels of a {@link ChannelGroup} an operation applies to. Combine the factories:
 * {@code ChannelMatcher.compose(ChannelMatcher.instanceOf(LocalChannel.class), ChannelMatcher.isNot(sender))}.
 */
@FunctionalInterface
public interface ChannelMatcher {

    /** True if the operation applies to {@code channel}. */
    boolean matches(Channel channel);

    /** Matches what this does not. */
    default ChannelMatcher invert() {
        return channel -> !matches(channel);
    }

    /** Every channel. */
    static ChannelMatcher all() {
        return channel -> true;
    }

    /** Only {@code target} itself. */
    static ChannelMatcher is(Channel target) {
        Objects.requireNonNull(target, "target");
        return channel -> channel == target;
    }

    /** Every channel but {@code target}: "broadcast to everyone except the sender". */
    static ChannelMatcher isNot(Channel target) {
        return is(target).invert();
    }

    /** Channels of {@code type} or a subtype. */
    static ChannelMatcher instanceOf(Class<? extends Channel> type) {
        Objects.requireNonNull(type, "type");
        return type::isInstance;
    }

    /** Channels not of {@code type}. */
    static ChannelMatcher isNotInstanceOf(Class<? extends Channel> type) {
        return instanceOf(type).invert();
    }

    /** Channels that every one of {@code matchers} matches (all channels if none is given). */
    static ChannelMatcher compose(ChannelMatcher... matchers) {
        ChannelMatcher[] copy = matchers.clone();
        for (ChannelMatcher m : copy) {
            Objects.requireNonNull(m, "matcher");
        }
        return channel -> {
            for (ChannelMatcher m : copy) {
                if (!m.matches(channel)) {
                    return false;
                }
            }
            return true;
        };
    }

    /** Inverts {@code matcher}; the same as {@code matcher.invert()}. */
    static ChannelMatcher invert(ChannelMatcher matcher) {
        return Objects.requireNonNull(matcher, "matcher").invert();
    }
}
