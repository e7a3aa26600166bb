package io.rill.channel.group;

import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.ReferenceCounted;
import io.rill.channel.Channel;
import io.rill.channel.ChannelId;
import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.FutureListener;
import io.rill.util.concurrent.GlobalEventExecutor;

/**
 * A thread-safe set of open channels that can be written to, flushed, disconnected or closed
 * together, for example every connected client of a chat server. A channel leaves the group by
 * itself when it closes.
 *
 * <p>Each bulk operation returns one plain {@link Future}: it succeeds when the operation
 * succeeded on every channel it applied to, and otherwise fails, once all are done, with a
 * {@link ChannelGroupException} that lists each failed channel and its cause. A
 * {@link ChannelMatcher} limits an operation to some channels.
 *
 * <p>Writing a reference-counted message: the group takes over the caller's reference, gives
 * each channel its own (a {@link ByteBuf} as a {@link ByteBuf#retainedDuplicate()}, so channels
 * share the bytes but not the reader index; anything else retained once per channel), and
 * releases the caller's reference once, after handing out the copies.
 *
 * <p>Equality is identity: two groups with the same members are still two groups.
 */
public final class ChannelGroup extends AbstractSet<Channel> {

    private final String name;
    /** Completes and notifies the bulk-operation futures. */
    private final EventExecutor executor;
    /** The members by id, each with the close listener that removes it. */
    private final ConcurrentMap<ChannelId, Member> members = new ConcurrentHashMap<>();

    /**
     * A group whose bulk futures notify on {@link GlobalEventExecutor}.
     *
     * @param name the group's name, for logs
     */
    public ChannelGroup(String name) {
        this(name, GlobalEventExecutor.INSTANCE);
    }

    /**
     * A group whose bulk futures notify their listeners on {@code executor}.
     *
     * @param name the group's name, for logs
     * @param executor notifies the bulk futures
     */
    public ChannelGroup(String name, EventExecutor executor) {
        this.name = Objects.requireNonNull(name, "name");
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /** A member, and the listener on its close future that takes it out again. */
    private final class Member {
        final Channel channel;
        final FutureListener<Void> onClose;

        Member(Channel channel) {
            this.channel = channel;
            this.onClose = f -> members.remove(channel.id(), this);
        }
    }

    /** {@return the group's name} */
    public String name() {
        return name;
    }

    /**
     * The member with {@code id}, or null.
     *
     * @param id a channel id
     * @return the member, or null
     */
    public Channel find(ChannelId id) {
        Member m = members.get(Objects.requireNonNull(id, "id"));
        return m == null ? null : m.channel;
    }

    // ---------------------------------------------------------------- Set

    /** Adds {@code channel} unless present; a closed channel is removed again at once. */
    @Override
    public boolean add(Channel channel) {
        Member m = new Member(Objects.requireNonNull(channel, "channel"));
        if (members.putIfAbsent(channel.id(), m) != null) {
            return false;
        }
        // Registered after the put: if the channel is closed already, this runs now and removes it.
        channel.closeFuture().addListener(m.onClose);
        return true;
    }

    @Override
    public boolean remove(Object o) {
        if (!(o instanceof Channel channel)) {
            return false;
        }
        Member m = members.get(channel.id());
        if (m == null || m.channel != channel || !members.remove(channel.id(), m)) {
            return false;
        }
        channel.closeFuture().removeListener(m.onClose);
        return true;
    }

    @Override
    public boolean contains(Object o) {
        if (!(o instanceof Channel channel)) {
            return false;
        }
        Member m = members.get(channel.id());
        return m != null && m.channel == channel;
    }

    @Override
    public int size() {
        return members.size();
    }

    @Override
    public boolean isEmpty() {
        return members.isEmpty();
    }

    /** A weakly consistent view, as of {@link ConcurrentHashMap}; its {@code remove} leaves the group. */
    @Override
    public Iterator<Channel> iterator() {
        Iterator<Member> it = members.values().iterator();
        return new Iterator<>() {
            private Channel last;

            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public Channel next() {
                last = it.next().channel;
                return last;
            }

            @Override
            public void remove() {
                if (last == null) {
                    throw new IllegalStateException("next() first");
                }
                ChannelGroup.this.remove(last);
                last = null;
            }
        };
    }

    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }

    @Override
    public String toString() {
        return "ChannelGroup(" + name + ", size: " + size() + ')';
    }

    // ---------------------------------------------------------------- bulk operations

    /**
     * Writes {@code msg} to every member; see the class comment for reference counts.
     *
     * @param msg the message; the group takes over the caller's reference
     * @return a future for the whole group
     */
    public Future<Void> write(Object msg) {
        return write(msg, ChannelMatcher.all());
    }

    /**
     * Writes {@code msg} to the members {@code matcher} selects.
     *
     * @param msg the message; the group takes over the caller's reference
     * @param matcher selects the members
     * @return a future for the selected members
     */
    public Future<Void> write(Object msg, ChannelMatcher matcher) {
        return writeToEach(msg, matcher, false);
    }

    /**
     * Writes and flushes {@code msg} to every member.
     *
     * @param msg the message; the group takes over the caller's reference
     * @return a future for the whole group
     */
    public Future<Void> writeAndFlush(Object msg) {
        return writeAndFlush(msg, ChannelMatcher.all());
    }

    /**
     * Writes and flushes {@code msg} to the members {@code matcher} selects.
     *
     * @param msg the message; the group takes over the caller's reference
     * @param matcher selects the members
     * @return a future for the selected members
     */
    public Future<Void> writeAndFlush(Object msg, ChannelMatcher matcher) {
        return writeToEach(msg, matcher, true);
    }

    /**
     * Flushes every member.
     *
     * @return this group
     */
    public ChannelGroup flush() {
        return flush(ChannelMatcher.all());
    }

    /**
     * Flushes the members {@code matcher} selects.
     *
     * @param matcher selects the members
     * @return this group
     */
    public ChannelGroup flush(ChannelMatcher matcher) {
        for (Channel ch : matching(matcher)) {
            ch.flush();
        }
        return this;
    }

    /**
     * Disconnects every member.
     *
     * @return a future for the whole group
     */
    public Future<Void> disconnect() {
        return disconnect(ChannelMatcher.all());
    }

    /**
     * Disconnects the members {@code matcher} selects.
     *
     * @param matcher selects the members
     * @return a future for the selected members
     */
    public Future<Void> disconnect(ChannelMatcher matcher) {
        return forEach(matcher, Channel::disconnect);
    }

    /**
     * Closes every member; they leave the group as they close.
     *
     * @return a future for the whole group
     */
    public Future<Void> close() {
        return close(ChannelMatcher.all());
    }

    /**
     * Closes the members {@code matcher} selects.
     *
     * @param matcher selects the members
     * @return a future for the selected members
     */
    public Future<Void> close(ChannelMatcher matcher) {
        return forEach(matcher, Channel::close);
    }

    private Future<Void> writeToEach(Object msg, ChannelMatcher matcher, boolean flush) {
        Objects.requireNonNull(msg, "msg");
        GroupOutcome outcome = new GroupOutcome(name, executor);
        try {
            Objects.requireNonNull(matcher, "matcher");
            for (Channel ch : matching(matcher)) {
                Object copy = ownCopy(msg);
                outcome.add(ch, flush ? ch.writeAndFlush(copy) : ch.write(copy));
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
        return outcome.seal();
    }

    /** A reference of the channel's own: duplicates keep each channel's reader index apart. */
    private static Object ownCopy(Object msg) {
        if (msg instanceof ByteBuf buf) {
            return buf.retainedDuplicate();
        }
        if (msg instanceof ReferenceCounted counted) {
            return counted.retain();
        }
        return msg;
    }

    private Future<Void> forEach(ChannelMatcher matcher, Function<Channel, Future<Void>> op) {
        Objects.requireNonNull(matcher, "matcher");
        GroupOutcome outcome = new GroupOutcome(name, executor);
        for (Channel ch : matching(matcher)) {
            outcome.add(ch, op.apply(ch));
        }
        return outcome.seal();
    }

    /** A snapshot of the matching members, so an operation is not confused by members leaving meanwhile. */
    private List<Channel> matching(ChannelMatcher matcher) {
        List<Channel> result = new ArrayList<>(members.size());
        for (Member m : members.values()) {
            if (matcher.matches(m.channel)) {
                result.add(m.channel);
            }
        }
        return result;
    }
}
