package io.rill.channel;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;

/**
 * The bookkeeping every {@link RecvByteBufAllocator.Handle} shares: messages and bytes of the
 * current burst against {@code MAX_MESSAGES_PER_READ}. Subclasses only predict sizes.
 */
abstract class ReadBurstHandle implements RecvByteBufAllocator.Handle {

    /** AUTO_READ at the start of the burst. */
    private ChannelConfig config;
    /** Messages delivered in this burst; compared with maxMessages. */
    private int messages;
    /** MAX_MESSAGES_PER_READ at the start of the burst. */
    private int maxMessages;
    /** Bytes read in this burst, saturating at Integer.MAX_VALUE. */
    private int totalBytes;
    private int lastBytesRead;
    private int attemptedBytesRead;

    @Override
    public ByteBuf allocate(ByteBufAllocator alloc) {
        return alloc.ioBuffer(guess());
    }

    @Override
    public void reset(ChannelConfig config) {
        this.config = config;
        this.maxMessages = config.getMaxMessagesPerRead();
        this.messages = 0;
        this.totalBytes = 0;
    }

    @Override
    public void incMessagesRead(int n) {
        messages += n;
    }

    @Override
    public void lastBytesRead(int bytes) {
        lastBytesRead = bytes;
        if (bytes > 0) {
            totalBytes = totalBytes + bytes < 0 ? Integer.MAX_VALUE : totalBytes + bytes;
        }
    }

    @Override
    public int lastBytesRead() {
        return lastBytesRead;
    }

    @Override
    public void attemptedBytesRead(int bytes) {
        attemptedBytesRead = bytes;
    }

    @Override
    public int attemptedBytesRead() {
        return attemptedBytesRead;
    }

    /** Bytes read so far in this burst. */
    protected final int totalBytesRead() {
        return totalBytes;
    }

    @Override
    public boolean continueReading() {
        return config != null && config.isReadingAutomatically() && messages < maxMessages
                && lastBytesRead > 0 && lastBytesRead == attemptedBytesRead;
    }

    @Override
    public void readComplete() {
    }
}
