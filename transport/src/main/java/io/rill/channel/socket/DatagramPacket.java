package io.rill.channel.socket;

import java.net.SocketAddress;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufHolder;

/**
 * One datagram: its payload and where it goes (outbound) or came from (inbound). It holds the
 * payload as a {@link ByteBufHolder}, so the pipeline's usual release rules apply: whoever
 * consumes a packet releases it.
 */
public final class DatagramPacket implements ByteBufHolder {

    private final ByteBuf content;
    /** Where an outbound packet goes; our own address on an inbound one (null if unknown). */
    private final SocketAddress recipient;
    /** Who sent an inbound packet; null on an outbound one (the channel's own address). */
    private final SocketAddress sender;

    /**
     * An outbound packet of {@code content} to {@code recipient}.
     *
     * @param content the payload; the packet owns it
     * @param recipient where to send it
     */
    public DatagramPacket(ByteBuf content, SocketAddress recipient) {
        this(content, recipient, null);
    }

    /**
     * A packet with both addresses, as a channel delivers a received one.
     *
     * @param content the payload; the packet owns it and whoever owns the packet must release it
     * @param recipient the address it was sent to
     * @param sender the address it came from, or null
     */
    public DatagramPacket(ByteBuf content, SocketAddress recipient, SocketAddress sender) {
        if (content == null) {
            throw new NullPointerException("content");
        }
        this.content = content;
        this.recipient = recipient;
        this.sender = sender;
    }

    /** {@return the payload, owned by this packet} */
    @Override
    public ByteBuf content() {
        return content;
    }

    /** {@return the address the packet goes (or went) to} */
    public SocketAddress recipient() {
        return recipient;
    }

    /** {@return the address the packet came from, or null for an outbound one} */
    public SocketAddress sender() {
        return sender;
    }

    /**
     * The same addresses with other content (used to copy a heap payload into a direct buffer).
     *
     * @param newContent the new payload; ownership passes to the new packet
     * @return the new packet; this one's content is not released
     */
    @Override
    public DatagramPacket replace(ByteBuf newContent) {
        return new DatagramPacket(newContent, recipient, sender);
    }

    @Override
    public DatagramPacket copy() {
        return replace(content.copy());
    }

    @Override
    public DatagramPacket duplicate() {
        return replace(content.duplicate());
    }

    @Override
    public DatagramPacket retainedDuplicate() {
        return replace(content.retainedDuplicate());
    }

    @Override
    public DatagramPacket retain() {
        content.retain();
        return this;
    }

    @Override
    public DatagramPacket retain(int increment) {
        content.retain(increment);
        return this;
    }

    @Override
    public DatagramPacket touch() {
        content.touch();
        return this;
    }

    @Override
    public DatagramPacket touch(Object hint) {
        content.touch(hint);
        return this;
    }

    @Override
    public String toString() {
        return "DatagramPacket(" + sender + " => " + recipient + ", " + content.readableBytes() + " bytes)";
    }
}
