package io.rill.channel.group;

import java.util.List;
import java.util.Map;

import io.rill.channel.Channel;
import io.rill.channel.ChannelException;

/**
 * A {@link ChannelGroup} operation failed on some of its channels: which ones, and why. Each
 * cause is also attached as a suppressed exception, so a logged stack trace shows them all.
 */
public final class ChannelGroupException extends ChannelException {

    private static final long serialVersionUID = 1L;

    /** Failed channel → cause, in the order the failures were reported. */
    private final transient List<Map.Entry<Channel, Throwable>> failures;

    ChannelGroupException(String groupName, int attempted, List<Map.Entry<Channel, Throwable>> failures) {
        super(describe(groupName, attempted, failures));
        this.failures = List.copyOf(failures);
        for (Map.Entry<Channel, Throwable> f : this.failures) {
            addSuppressed(f.getValue());
        }
    }

    private static String describe(String groupName, int attempted, List<Map.Entry<Channel, Throwable>> failures) {
        StringBuilder sb = new StringBuilder().append(failures.size()).append(" of ").append(attempted)
                .append(" channels of group '").append(groupName).append("' failed:");
        for (Map.Entry<Channel, Throwable> f : failures) {
            sb.append("\n  ").append(f.getKey()).append(": ").append(f.getValue());
        }
        return sb.toString();
    }

    /** {@return each failed channel with its cause, in the order the failures were reported} */
    public List<Map.Entry<Channel, Throwable>> failures() {
        return failures;
    }
}
