package io.rill.testsuite.logging;

import io.rill.channel.Channel;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * Run by {@link LoggingBridgeTest} in a JVM of its own, with a logging bridge on the class path:
 * makes Rill log one warning with a cause, and one debug line, through {@code System.Logger}.
 */
public final class LoggingBridgeMain {

    private LoggingBridgeMain() {
    }

    public static void main(String[] args) {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.pipeline().addLast(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                throw new IllegalStateException("bridge check");
            }
        });
        channel.runPendingTasks();
        System.out.println("finder: " + System.LoggerFinder.getLoggerFinder().getClass().getName());
    }
}
