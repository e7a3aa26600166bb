package io.rill.channel;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR event {@code io.rill.ConnectionAccepted}: a server channel accepted a connection and the new
 * channel was registered with its event loop. Committed on that loop's thread.
 */
@Name("io.rill.ConnectionAccepted")
@Label("Connection Accepted")
@Category("Rill")
@Description("A server channel accepted a connection")
@StackTrace(false)
final class ConnectionAcceptedEvent extends jdk.jfr.Event {

    /** Asked first, so that no event object is made per connection while no recording wants one. */
    private static final ConnectionAcceptedEvent PROBE = new ConnectionAcceptedEvent();

    @Label("Channel Id")
    String channelId;

    @Label("Transport")
    @Description("Simple name of the channel class")
    String transport;

    @Label("Remote Address")
    String remoteAddress;

    @Label("Local Address")
    String localAddress;

    /** Initialises the class and what its first {@code commit} needs; see {@link ResourceExhaustion#preload()}. */
    static void load() {
        PROBE.isEnabled(); // the call commit() makes first, with whatever it loads
    }

    /** Commits one event for {@code channel} if a recording wants it; builds nothing otherwise. */
    static void commit(Channel channel) {
        if (!PROBE.isEnabled()) {
            return;
        }
        ConnectionAcceptedEvent event = new ConnectionAcceptedEvent();
        if (event.shouldCommit()) {
            event.channelId = channel.id().asShortText();
            event.transport = channel.getClass().getSimpleName();
            event.remoteAddress = String.valueOf(channel.remoteAddress());
            event.localAddress = String.valueOf(channel.localAddress());
            event.commit();
        }
    }
}
