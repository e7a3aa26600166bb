package io.rill.channel.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelId;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.ImmediateEventExecutor;
import io.rill.util.concurrent.Promise;

@Timeout(20)
class ChannelGroupTest {

    private final ChannelGroup group = new ChannelGroup("test", ImmediateEventExecutor.INSTANCE);

    /** An embedded channel with a unique id (the default embedded id is shared). */
    private static EmbeddedChannel channel(ChannelHandler... handlers) {
        return new EmbeddedChannel(ChannelId.newInstance(), true, handlers);
    }

    /** Fails every write with {@code cause}. */
    private static ChannelHandler failingWrites(RuntimeException cause) {
        return new ChannelHandler() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
                ((ByteBuf) msg).release();
                promise.setFailure(cause);
            }
        };
    }

    @Test
    void broadcastGivesEachChannelItsOwnCopyAndReleasesTheOriginalOnce() {
        List<EmbeddedChannel> channels = List.of(channel(), channel(), channel());
        group.addAll(channels);
        ByteBuf msg = Unpooled.copiedBuffer("hello", StandardCharsets.US_ASCII);
        Future<Void> done = group.writeAndFlush(msg);
        assertTrue(done.isSuccess());
        // Duplicates share the original's count: one reference per channel, the caller's is gone.
        assertEquals(3, msg.refCnt());
        List<ByteBuf> received = new ArrayList<>();
        for (EmbeddedChannel ch : channels) {
            ByteBuf copy = ch.readOutbound();
            received.add(copy);
            assertEquals("hello", copy.toString(StandardCharsets.US_ASCII));
            copy.skipBytes(2); // reading one copy must not move another's reader index
        }
        assertNotSame(received.get(0), received.get(1));
        assertEquals(3, received.get(2).readableBytes());
        for (ByteBuf copy : received) {
            copy.release();
        }
        assertEquals(0, msg.refCnt());
        for (EmbeddedChannel ch : channels) {
            assertFalse(ch.finishAndReleaseAll());
        }
    }

    @Test
    void writeWaitsForFlushAndNonCountedMessagesGoAsTheyAre() {
        EmbeddedChannel a = channel();
        EmbeddedChannel b = channel();
        group.add(a);
        group.add(b);
        Future<Void> written = group.write("text");
        assertNull(a.readOutbound());
        assertFalse(written.isDone());
        group.flush();
        assertTrue(written.isSuccess());
        assertSame("text", a.readOutbound());
        assertSame("text", b.readOutbound());
    }

    @Test
    void closeAllClosesEveryMemberAndEmptiesTheGroup() {
        List<EmbeddedChannel> channels = List.of(channel(), channel(), channel());
        group.addAll(channels);
        assertTrue(group.close().isSuccess());
        for (EmbeddedChannel ch : channels) {
            assertFalse(ch.isOpen());
        }
        assertTrue(group.isEmpty());
    }

    @Test
    void aMemberLeavesTheGroupWhenItClosesAndAClosedChannelNeverStays() {
        EmbeddedChannel a = channel();
        EmbeddedChannel b = channel();
        group.add(a);
        group.add(b);
        assertEquals(2, group.size());
        a.close();
        assertEquals(Set.of(b), Set.copyOf(group));
        assertFalse(group.contains(a));

        EmbeddedChannel closed = channel();
        closed.close();
        group.add(closed);
        assertFalse(group.contains(closed));
    }

    @Test
    void removedChannelIsNoLongerReachedAndDuplicatesAreIgnored() {
        EmbeddedChannel a = channel();
        assertTrue(group.add(a));
        assertFalse(group.add(a));
        assertTrue(group.remove(a));
        assertFalse(group.remove(a));
        group.writeAndFlush("x");
        assertNull(a.readOutbound());
        a.close();
    }

    @Test
    void matchersSelectTheChannelsAnOperationAppliesTo() {
        EmbeddedChannel a = channel();
        EmbeddedChannel b = channel();
        EmbeddedChannel c = channel();
        group.addAll(List.of(a, b, c));
        group.writeAndFlush("not-a", ChannelMatcher.isNot(a));
        assertNull(a.readOutbound());
        assertEquals("not-a", b.readOutbound());
        assertEquals("not-a", c.readOutbound());

        group.writeAndFlush("only-b", ChannelMatcher.is(b));
        assertEquals("only-b", b.readOutbound());
        assertNull(a.readOutbound());
        assertNull(c.readOutbound());

        group.writeAndFlush("c", ChannelMatcher.compose(ChannelMatcher.instanceOf(EmbeddedChannel.class),
                ChannelMatcher.isNot(a), ChannelMatcher.invert(ChannelMatcher.is(b))));
        assertEquals("c", c.readOutbound());
        assertNull(b.readOutbound());

        group.writeAndFlush("none", ChannelMatcher.isNotInstanceOf(EmbeddedChannel.class));
        assertNull(a.readOutbound());
        assertTrue(group.close(ChannelMatcher.is(c)).isSuccess());
        assertTrue(a.isOpen() && b.isOpen() && !c.isOpen());
        a.close();
        b.close();
    }

    @Test
    void failuresAreCollectedPerChannelIntoOneGroupException() {
        IllegalStateException boom1 = new IllegalStateException("boom 1 (expected by test)");
        IllegalStateException boom2 = new IllegalStateException("boom 2 (expected by test)");
        EmbeddedChannel ok = channel();
        EmbeddedChannel bad1 = channel(failingWrites(boom1));
        EmbeddedChannel bad2 = channel(failingWrites(boom2));
        group.addAll(List.of(ok, bad1, bad2));
        Future<Void> done = group.writeAndFlush(Unpooled.copiedBuffer(new byte[] {1, 2}));
        ChannelGroupException e = assertInstanceOf(ChannelGroupException.class, done.cause());
        assertEquals(2, e.failures().size());
        for (var failure : e.failures()) {
            Channel ch = failure.getKey();
            assertSame(ch == bad1 ? boom1 : boom2, failure.getValue());
        }
        assertTrue(e.getMessage().startsWith("2 of 3 channels of group 'test' failed"), e.getMessage());
        assertEquals(2, e.getSuppressed().length);
        ByteBuf delivered = ok.readOutbound();
        delivered.release();
        for (EmbeddedChannel ch : List.of(ok, bad1, bad2)) {
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void anEmptyGroupSucceedsAtOnceAndStillReleasesTheMessage() {
        ByteBuf msg = Unpooled.buffer(4).writeInt(7);
        assertTrue(group.writeAndFlush(msg).isSuccess());
        assertEquals(0, msg.refCnt());
        assertTrue(group.disconnect().isSuccess());
    }

    @Test
    void findLooksMembersUpByIdAndTheGroupHasAName() {
        EmbeddedChannel a = channel();
        group.add(a);
        assertSame(a, group.find(a.id()));
        assertNull(group.find(ChannelId.newInstance()));
        assertEquals("test", group.name());
        assertTrue(group.toString().contains("test"));
        a.close();
    }

    @Test
    void waitsOnAnotherExecutorForChannelsThatCompleteLater() throws Exception {
        ChannelGroup global = new ChannelGroup("global");
        EmbeddedChannel a = channel();
        global.add(a);
        Future<Void> closed = global.close();
        assertTrue(closed.await(5, TimeUnit.SECONDS));
        assertTrue(closed.isSuccess());
    }
}
