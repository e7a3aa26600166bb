package io.rill.channel.group;

import java.util.Objects;

import io.rill.channel.Channel;

/**
 * Selects the channels of a {@link ChannelGroup} an operation applies to. Combine the factories:
 * {@code ChannelMatcher.compose(ChannelMatcher.instanceOf(LocalChannel.class), ChannelMatcher.isNot(sender))}.
 */
@FunctionalInterface
public interface ChannelMatcher {

    /**
     * {@return true if the operation applies to {@code channel}}
     *
     * @param channel a member of the group
     */
    boolean matches(Channel channel);

    /** {@return a matcher of what this one does not match} */
    default ChannelMatcher invert() {
        return channel -> !matches(channel);
    }

    /** {@return a matcher of every channel} */
    static ChannelMatcher all() {
        return channel -> true;
    }

    /**
     * {@return a matcher of only {@code target} itself}
     *
     * @param target the channel
     */
    static ChannelMatcher is(Channel target) {
        Objects.requireNonNull(target, "target");
        return channel -> channel == target;
    }

    /**
     * {@return a matcher of every channel but {@code target}: "broadcast to everyone except the sender"}
     *
     * @param target the channel left out
     */
    static ChannelMatcher isNot(Channel target) {
        return is(target).invert();
    }

    /**
     * {@return a matcher of channels of {@code type} or a subtype}
     *
     * @param type the channel class
     */
    static ChannelMatcher instanceOf(Class<? extends Channel> type) {
        Objects.requireNonNull(type, "type");
        return type::isInstance;
    }

    /**
     * {@return a matcher of channels not of {@code type}}
     *
     * @param type the channel class
     */
    static ChannelMatcher isNotInstanceOf(Class<? extends Channel> type) {
        return instanceOf(type).invert();
    }

    /**
     * {@return a matcher of channels that every one of {@code matchers} matches (all channels if none is given)}
     *
     * @param matchers the matchers to combine
     */
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

    /**
     * {@return the inverse of {@code matcher}; the same as {@code matcher.invert()}}
     *
     * @param matcher the matcher to invert
     */
    static ChannelMatcher invert(ChannelMatcher matcher) {
        return Objects.requireNonNull(matcher, "matcher").invert();
    }
}
