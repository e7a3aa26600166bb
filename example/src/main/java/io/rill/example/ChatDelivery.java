package io.rill.example;

import java.util.concurrent.atomic.AtomicLong;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.ByteBufUtil;
import io.rill.channel.AttributeKey;
import io.rill.channel.Channel;
import io.rill.channel.group.ChannelGroup;
import io.rill.util.InternalLogger;

/**
 * Delivers the chat's lines to its members with a bound per member: the bytes handed to a
 * member's channel and not yet written to its socket. A line is encoded once and shared by
 * every member. A member whose backlog would pass the bound reads slower than the room talks;
 * keeping up with it would cost memory without end, so it is disconnected instead (and marked, so
 * its farewell says why).
 *
 * <p>The count is kept here rather than read from the channel's outbound buffer because lines
 * come from other members' event loops: until the member's own loop runs the write, the bytes
 * wait in its task queue, where no water mark sees them.
 *
 * <p>Lines are written as they come and flushed once per read burst of their sender
 * ({@link #flush}): a flush per line would cost a task and a system call per line and member,
 * and a fast reader's loop would fall behind a fast talker's. A member's backlog therefore
 * includes up to one read burst of its talkers (about 1 MiB); the bound must be above that.
 */
final class ChatDelivery {
    private static final InternalLogger LOG = InternalLogger.get(ChatDelivery.class);
    /** Bytes of lines handed to the member's channel and not yet written out (or failed). */
    private static final AttributeKey<AtomicLong> BACKLOG = AttributeKey.valueOf("chat.backlog");
    /** Set on a member disconnected for its backlog. */
    private static final AttributeKey<Boolean> TOO_SLOW = AttributeKey.valueOf("chat.tooSlow");

    private final ChannelGroup members;
    private final long maxQueued;

    ChatDelivery(ChannelGroup members, long maxQueued) {
        this.members = members;
        this.maxQueued = maxQueued;
    }

    long maxQueued() {
        return maxQueued;
    }

    /**
     * Writes {@code text} as a CRLF-terminated line to every member but {@code except} (may be
     * null), without flushing: call {@link #flush} after.
     */
    void broadcast(ByteBufAllocator alloc, String text, Channel except) {
        ByteBuf line = alloc.buffer(ByteBufUtil.utf8Bytes(text) + 2);
        ByteBufUtil.writeUtf8(line, text);
        line.writeByte('\r').writeByte('\n');
        try {
            for (Channel member : members) {
                if (member != except) {
                    send(member, line);
                }
            }
        } finally {
            line.release();
        }
    }

    private void send(Channel member, ByteBuf line) {
        AtomicLong backlog = member.attr(BACKLOG).setIfAbsent(new AtomicLong());
        if (backlog == null) {
            backlog = member.attr(BACKLOG).get();
        }
        int size = line.readableBytes();
        if (backlog.addAndGet(size) > maxQueued) {
            backlog.addAndGet(-size);
            disconnect(member);
            return;
        }
        AtomicLong counted = backlog;
        member.write(line.retainedDuplicate()).addListener(f -> counted.addAndGet(-size));
    }

    /** Flushes what {@link #broadcast} wrote to every member but {@code except}. */
    void flush(Channel except) {
        for (Channel member : members) {
            if (member != except) {
                member.flush();
            }
        }
    }

    private void disconnect(Channel member) {
        if (member.attr(TOO_SLOW).setIfAbsent(Boolean.TRUE) == null) {
            LOG.info("Disconnecting {} ({}): more than {} bytes of lines wait for it to read (--max-queued)",
                    LineChatServer.ChatRoom.nick(member), member.remoteAddress(), maxQueued);
            member.close();
        }
    }

    /** True if {@code member} was disconnected for its backlog. */
    static boolean wasTooSlow(Channel member) {
        return Boolean.TRUE.equals(member.attr(TOO_SLOW).get());
    }
}
