package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.util.concurrent.Future;

/**
 * One connection whose bytes are costly to handle must not hold its event loop for a whole
 * MAX_MESSAGES_PER_READ burst: a burst ends once it has run for the read-burst quantum
 * ({@code rill.channel.readBurstQuantumMicros}, 1 ms by default), the rest is read on a later
 * turn, and the loop's other channels are served in between (docs/security-cases.md, R-08).
 */
abstract class SocketReadFairnessTests extends AbstractSocketTest {

    /** What each read costs the handler, as CPU time: three times the default quantum. */
    private static final long COST_PER_READ_NANOS = TimeUnit.MILLISECONDS.toNanos(3);
    private static final int PIECE = 2048;
    private static final int PIECES = 24;

    @Test
    void aBurstOfCostlyReadsEndsAtTheQuantumAndTheRestArrivesLater() throws Exception {
        List<Integer> readsPerBurst = new CopyOnWriteArrayList<>();
        CountDownLatch allRead = new CountDownLatch(1);
        ChannelHandler costly = new ChannelHandler() {
            private int readsThisBurst;
            private long bytes;

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                bytes += ((ByteBuf) msg).readableBytes();
                ((ByteBuf) msg).release();
                readsThisBurst++;
                long until = System.nanoTime() + COST_PER_READ_NANOS;
                while (System.nanoTime() - until < 0) {
                    Thread.onSpinWait(); // work, not waiting: the loop thread stays busy
                }
            }

            @Override
            public void channelReadComplete(ChannelHandlerContext ctx) {
                readsPerBurst.add(readsThisBurst);
                readsThisBurst = 0;
                if (bytes == (long) PIECE * PIECES) {
                    allRead.countDown();
                }
            }
        };
        Channel server = startServer(costly);
        Channel client = connect(server, new ByteCollector());
        Future<Void> last = null;
        for (int i = 0; i < PIECES; i++) {
            last = client.write(SocketEchoTests.copy(client, new byte[PIECE], 0, PIECE));
        }
        client.flush();
        await(last);

        assertTrue(allRead.await(30, TimeUnit.SECONDS), "not every byte was read; bursts so far " + readsPerBurst);
        for (int reads : readsPerBurst) {
            assertEquals(1, reads, "a burst went on after its quantum was spent: reads per burst " + readsPerBurst);
        }
    }
}
