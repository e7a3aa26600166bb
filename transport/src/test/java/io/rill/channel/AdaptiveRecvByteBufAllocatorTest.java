package io.rill.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.rill.channel.embedded.EmbeddedChannel;

class AdaptiveRecvByteBufAllocatorTest {

    private final EmbeddedChannel ch = new EmbeddedChannel();

    /** One burst of single reads of the given sizes, each into a buffer of the predicted size. */
    private static void burst(RecvByteBufAllocator.Handle h, ChannelConfig config, int... reads) {
        h.reset(config);
        for (int r : reads) {
            int capacity = h.guess();
            h.attemptedBytesRead(capacity);
            h.lastBytesRead(Math.min(r, capacity));
            h.incMessagesRead(1);
        }
        h.readComplete();
    }

    @Test
    void growsFastWhenReadsFillTheBuffer() {
        RecvByteBufAllocator.Handle h = new AdaptiveRecvByteBufAllocator(64, 1024, 65536).newHandle();
        assertEquals(1024, h.guess());
        burst(h, ch.config(), 1024);
        assertTrue(h.guess() >= 8192, "one full read jumps several sizes: " + h.guess());
        ch.finish();
    }

    @Test
    void shrinksOnlyAfterTwoSmallBurstsInARow() {
        RecvByteBufAllocator.Handle h = new AdaptiveRecvByteBufAllocator(64, 1024, 65536).newHandle();
        burst(h, ch.config(), 10);
        assertEquals(1024, h.guess());
        burst(h, ch.config(), 10);
        assertTrue(h.guess() < 1024, "second small burst shrinks: " + h.guess());
        int shrunk = h.guess();
        burst(h, ch.config(), 10);
        assertEquals(shrunk, h.guess(), "a shrink re-arms: the next small burst only arms again");
        ch.finish();
    }

    @Test
    void messagesOfOneSizeSettleOnABufferTheyDoNotFill() {
        RecvByteBufAllocator.Handle h = new AdaptiveRecvByteBufAllocator(64, 2048, 65536).newHandle();
        for (int i = 0; i < 100; i++) {
            burst(h, ch.config(), 256);
        }
        // A 256-byte buffer would be filled exactly, and a full buffer means another read that
        // finds nothing; the prediction stops one size above.
        assertEquals(272, h.guess());
        for (int i = 0; i < 100; i++) {
            burst(h, ch.config(), 256);
            assertEquals(272, h.guess(), "stable after " + i + " more bursts");
        }
        ch.finish();
    }

    @Test
    void continueReadingStopsAtMaxMessagesOrAShortRead() {
        ch.config().setMaxMessagesPerRead(2);
        RecvByteBufAllocator.Handle h = new FixedRecvByteBufAllocator(100).newHandle();
        h.reset(ch.config());
        h.attemptedBytesRead(100);
        h.lastBytesRead(100);
        h.incMessagesRead(1);
        assertTrue(h.continueReading());
        h.lastBytesRead(50);
        assertFalse(h.continueReading(), "short read: the socket is drained");
        h.lastBytesRead(100);
        h.incMessagesRead(1);
        assertFalse(h.continueReading(), "max messages per read");
        ch.finish();
    }
}
