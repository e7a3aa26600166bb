package io.rill.channel;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR event {@code io.rill.ConnectionClosed}: a connected channel (accepted or connected out) is
 * closing. Listening and unconnected channels are not reported: they have no peer.
 */
@Name("io.rill.ConnectionClosed")
@Label("Connection Closed")
@Category("Rill")
@Description("A connected channel closed")
@StackTrace(false)
final class ConnectionClosedEvent extends jdk.jfr.Event {

    /** Asked first, so that no event object is made per connection while no recording wants one. */
    private static final ConnectionClosedEvent PROBE = new ConnectionClosedEvent();

    @Label("Channel Id")
    String channelId;

    @Label("Transport")
    @Description("Simple name of the channel class")
    String transport;

    @Label("Remote Address")
    String remoteAddress;

    @Label("Local Address")
    String localAddress;

    @Label("Accepted")
    @Description("True if a server channel accepted it; false if it connected out")
    boolean accepted;

    @Label("Bytes Written")
    @DataAmount
    long bytesWritten;

    /** Initialises the class and what its first {@code commit} needs; see {@link ResourceExhaustion#preload()}. */
    static void load() {
        PROBE.isEnabled(); // the call commit() makes first, with whatever it loads
    }

    /** Commits one event if a recording wants it and {@code channel} has a peer; call before the socket closes. */
    static void commit(Channel channel) {
        if (!PROBE.isEnabled()) {
            return;
        }
        ConnectionClosedEvent event = new ConnectionClosedEvent();
        if (event.shouldCommit()) {
            Object remote = channel.remoteAddress();
            if (remote == null) {
                return;
            }
            event.channelId = channel.id().asShortText();
            event.transport = channel.getClass().getSimpleName();
            event.remoteAddress = remote.toString();
            event.localAddress = String.valueOf(channel.localAddress());
            event.accepted = channel.parent() != null;
            event.bytesWritten = channel.totalBytesWritten();
            event.commit();
        }
    }
}
