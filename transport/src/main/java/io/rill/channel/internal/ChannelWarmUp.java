package io.rill.channel.internal;

import java.util.function.ToIntFunction;

import io.rill.channel.AbstractChannel;

/**
 * Loads the objects an I/O event of a channel goes through first (its pipeline's contexts and
 * handlers, its outbound buffer), so that an event loop can fetch them for several ready channels
 * at once before it handles the first: with thousands of connections those objects are far from
 * the CPU, and touched together their loads are in flight at the same time. A transport adds what
 * its own read path touches (see {@link StreamReadLoop#warmUp()}).
 *
 * <p>The objects are package-private to {@code io.rill.channel}; {@link AbstractChannel} hands
 * this class the one function that reads them when it is initialized, which is before any channel
 * exists, so the transports reach them without the channel growing a public method for it.
 */
public final class ChannelWarmUp {

    /**
     * Set once, by AbstractChannel's class initializer; a channel passed to {@link #warmUp} was
     * made after it, and reached the loop thread through a queue, so the write is visible there.
     */
    private static ToIntFunction<AbstractChannel> objects;

    private ChannelWarmUp() {
    }

    /**
     * Called by {@link AbstractChannel}'s class initializer, once.
     *
     * @param warmUp reads a channel's pipeline and outbound buffer and returns a value derived from them
     * @throws IllegalStateException on a second call
     */
    public static void install(ToIntFunction<AbstractChannel> warmUp) {
        if (objects != null) {
            throw new IllegalStateException("the channel warm-up is installed already");
        }
        objects = warmUp;
    }

    /**
     * Loads {@code channel}'s pipeline and outbound buffer; returns a value derived from what it
     * read, which the caller must keep (sum it into a field) so that the JIT cannot drop the loads.
     *
     * @param channel the channel about to handle an event
     * @return a value of no meaning
     */
    public static int warmUp(AbstractChannel channel) {
        return objects.applyAsInt(channel);
    }
}
