package io.rill.channel.internal;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.channel.socket.DatagramPacket;

/**
 * Outbound messages made ready for the kernel, which reads native memory: shared by the NIO and
 * native transports' {@code filterOutboundMessage}. A heap buffer is copied once into a pooled
 * direct one (the JDK would otherwise copy it on every write attempt) and released.
 */
public final class DirectOutbound {

    private DirectOutbound() {
    }

    /**
     * A direct copy of {@code buf}'s readable bytes; {@code buf} is released.
     *
     * @param alloc where the copy comes from
     * @param buf the buffer to copy; released by this method
     * @return the copy; ownership passes to the caller
     */
    public static ByteBuf copy(ByteBufAllocator alloc, ByteBuf buf) {
        int readable = buf.readableBytes();
        ByteBuf direct = alloc.directBuffer(readable);
        direct.writeBytes(buf, buf.readerIndex(), readable);
        buf.release();
        return direct;
    }

    /**
     * What a datagram channel writes: a {@link DatagramPacket}, or a bare {@link ByteBuf} once
     * {@code connected}, each with its content as one direct buffer in a single piece (one
     * datagram, one iovec). Anything else is an {@link UnsupportedOperationException} naming
     * {@code channelType}.
     *
     * @param msg the message to write; released if it is replaced or refused
     * @param connected whether the channel is connected to one peer
     * @param alloc where a direct copy comes from
     * @param channelType names the channel in the error
     * @return the message to queue
     */
    public static Object datagram(Object msg, boolean connected, ByteBufAllocator alloc, String channelType) {
        if (msg instanceof DatagramPacket packet) {
            ByteBuf content = packet.content();
            return isOneDirectPiece(content) ? packet : packet.replace(copy(alloc, content));
        }
        if (msg instanceof ByteBuf buf) {
            if (!connected) {
                throw new UnsupportedOperationException("an unconnected datagram channel writes DatagramPackets (with a"
                        + " recipient), not a bare ByteBuf; connect() it first or wrap the buffer");
            }
            return isOneDirectPiece(buf) ? buf : copy(alloc, buf);
        }
        throw new UnsupportedOperationException(channelType + " writes DatagramPackets and ByteBufs, not a "
                + msg.getClass().getName());
    }

    private static boolean isOneDirectPiece(ByteBuf buf) {
        return buf.isDirect() && buf.nioBufferCount() == 1;
    }
}
