package io.rill.micrometer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.rill.channel.ChannelMetrics;
import io.rill.channel.EventLoopMetrics;
import io.rill.channel.MultiThreadIoEventLoopGroup;

/**
 * Binds the {@link EventLoopMetrics} of each loop of a group, and the {@link ChannelMetrics} of
 * its channels, to a {@link MeterRegistry}. Every meter carries the tag {@code loop} (the loop's
 * thread name) plus the tags given here:
 * <ul>
 *   <li>{@code rill.eventloop.tasks.pending} (gauge): tasks queued and not yet run;</li>
 *   <li>{@code rill.eventloop.busy.time} (counter, seconds): time not spent waiting for I/O, so
 *       its rate is how loaded the loop is (1: fully);</li>
 *   <li>{@code rill.eventloop.tasks.time} (counter, seconds): of that, time spent running tasks;
 *       the rest is I/O handling;</li>
 *   <li>{@code rill.eventloop.io.events} (counter): readiness events handled;</li>
 *   <li>{@code rill.channels.open} (gauge), {@code rill.channels.accepted},
 *       {@code rill.channels.closed} and {@code rill.channels.writability.changes} (counters).</li>
 * </ul>
 * The meters read Rill's getters when the registry polls them: binding costs the loops nothing.
 * The registry holds the figures weakly, as Micrometer does for any state object; the group keeps
 * them alive while it lives.
 */
public final class EventLoopMeters implements MeterBinder {

    private final List<EventLoopMetrics> loops;
    private final Tags tags;

    /**
     * @param group the loops to watch
     * @param tags  added to every meter, e.g. {@code group=workers}
     */
    public EventLoopMeters(MultiThreadIoEventLoopGroup group, Tag... tags) {
        this(group.metrics(), tags);
    }

    /**
     * @param loops any set of loops, e.g. of a boss and a worker group together
     * @param tags  added to every meter
     */
    public EventLoopMeters(List<EventLoopMetrics> loops, Tag... tags) {
        this.loops = List.copyOf(new ArrayList<>(loops));
        this.tags = Tags.of(tags);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (EventLoopMetrics loop : loops) {
            Tags loopTags = tags.and("loop", loop.name());
            Gauge.builder("rill.eventloop.tasks.pending", loop, EventLoopMetrics::pendingTasks)
                    .tags(loopTags).description("Tasks queued on the event loop and not yet run").register(registry);
            FunctionCounter.builder("rill.eventloop.busy.time", loop, l -> seconds(l.busyNanos()))
                    .tags(loopTags).baseUnit("seconds").description("Time the event loop spent not waiting for I/O")
                    .register(registry);
            FunctionCounter.builder("rill.eventloop.tasks.time", loop,
                            l -> seconds(l.taskNanos()))
                    .tags(loopTags).baseUnit("seconds").description("Time the event loop spent running tasks")
                    .register(registry);
            FunctionCounter.builder("rill.eventloop.io.events", loop, EventLoopMetrics::ioEvents)
                    .tags(loopTags).description("I/O readiness events the event loop handled").register(registry);
            bindChannels(registry, loop.channels(), loopTags);
        }
    }

    private static double seconds(long nanos) {
        return (double) nanos / TimeUnit.SECONDS.toNanos(1);
    }

    private static void bindChannels(MeterRegistry registry, ChannelMetrics channels, Tags tags) {
        Gauge.builder("rill.channels.open", channels, ChannelMetrics::openChannels)
                .tags(tags).description("Channels open on the event loop, listening ones included").register(registry);
        FunctionCounter.builder("rill.channels.accepted", channels, ChannelMetrics::acceptedChannels)
                .tags(tags).description("Connections accepted onto the event loop").register(registry);
        FunctionCounter.builder("rill.channels.closed", channels, ChannelMetrics::closedChannels)
                .tags(tags).description("Channels of the event loop that closed").register(registry);
        FunctionCounter.builder("rill.channels.writability.changes", channels, ChannelMetrics::writabilityChanges)
                .tags(tags).description("Times a channel turned unwritable or writable again").register(registry);
    }
}
