package io.rill.handler.codec.mqtt;

import static io.rill.handler.codec.mqtt.MqttWire.malformed;
import static io.rill.handler.codec.mqtt.MqttWire.protocolError;

import java.util.List;
import java.util.Objects;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.ByteToMessageDecoder;
import io.rill.handler.codec.EncoderException;
import io.rill.util.concurrent.Promise;

/**
 * Decodes MQTT packets from bytes and encodes {@link MqttMessage}s to bytes, for one side of one
 * connection. A packet is decoded once all of it has arrived:
 *
 * <pre>
 *   byte 1        bytes 2..5                    body
 *  ┌──────┬─────┬──────────────────────────┬────────────────────────────┐
 *  │ type │flags│ remaining length (VBI)   │ remaining length bytes     │
 *  └──────┴─────┴──────────────────────────┴────────────────────────────┘
 *   checked: the type may travel this way, its flags are the fixed ones,
 *   1 + VBI + remaining ≤ maxPacketSize — all before the body is buffered
 * </pre>
 *
 * <p>A {@link #server} codec learns the version from the first packet, which must be CONNECT, and
 * speaks it both ways from then on; a {@link #client} codec is given it. Each side also honours the
 * other's MQTT 5 Maximum Packet Size (CONNECT's for a server, CONNACK's for a client): a larger
 * packet fails its write with an {@link EncoderException} (a server drops such a PUBLISH, 5.0
 * section 3.1.2.11.4, so check {@link #encodedSize} first).
 *
 * <p>The first bad packet raises an {@link MqttDecoderException} with the reason code to answer
 * with; every later byte is dropped, so nothing after a bad packet is ever acted on. The handler
 * that catches it sends CONNACK or DISCONNECT if the version allows, then closes.
 */
public final class MqttCodec extends ByteToMessageDecoder {

    /** Default maximum size of a received packet, fixed header included: 256 KiB. */
    public static final int DEFAULT_MAX_PACKET_SIZE = 256 * 1024;
    /** Default most properties, topic filters or reason codes in one packet. */
    public static final int DEFAULT_MAX_LIST_ENTRIES = 256;

    private final boolean server;
    private final int maxPacketSize;
    private final int maxListEntries;
    /** Null on a server until its CONNECT arrives. */
    private MqttVersion version;
    private MqttPacketReader reader;
    /** The most bytes the peer accepts in one packet (its Maximum Packet Size), unbounded until it says. */
    private long peerMaxPacketSize = Long.MAX_VALUE;
    /** A bad packet was seen; every later byte is dropped. */
    private boolean failed;

    private MqttCodec(boolean server, MqttVersion version, int maxPacketSize, int maxListEntries) {
        if (maxPacketSize < 2 || maxListEntries < 1) {
            throw new IllegalArgumentException("maxPacketSize " + maxPacketSize + ", maxListEntries " + maxListEntries);
        }
        this.server = server;
        this.version = version;
        this.maxPacketSize = maxPacketSize;
        this.maxListEntries = maxListEntries;
        this.reader = version == null ? null : new MqttPacketReader(version, maxListEntries);
    }

    /** {@return a broker's codec with the default limits} */
    public static MqttCodec server() {
        return server(DEFAULT_MAX_PACKET_SIZE, DEFAULT_MAX_LIST_ENTRIES);
    }

    /**
     * {@return a broker's codec}
     *
     * @param maxPacketSize the largest packet accepted, fixed header included (announce it in
     *                      CONNACK's Maximum Packet Size)
     * @param maxListEntries the most properties, topic filters or reason codes in one packet
     */
    public static MqttCodec server(int maxPacketSize, int maxListEntries) {
        return new MqttCodec(true, null, maxPacketSize, maxListEntries);
    }

    /**
     * {@return a client's codec with the default limits}
     *
     * @param version the version the client's CONNECT will ask for
     */
    public static MqttCodec client(MqttVersion version) {
        return client(version, DEFAULT_MAX_PACKET_SIZE, DEFAULT_MAX_LIST_ENTRIES);
    }

    /**
     * {@return a client's codec}
     *
     * @param version the version the client's CONNECT will ask for
     * @param maxPacketSize the largest packet accepted, fixed header included
     * @param maxListEntries the most properties, topic filters or reason codes in one packet
     */
    public static MqttCodec client(MqttVersion version, int maxPacketSize, int maxListEntries) {
        return new MqttCodec(false, Objects.requireNonNull(version, "version"), maxPacketSize, maxListEntries);
    }

    /** {@return the version spoken, or null on a server before CONNECT} */
    public MqttVersion version() {
        return version;
    }

    /** {@return the largest packet this codec accepts} */
    public int maxPacketSize() {
        return maxPacketSize;
    }

    /**
     * {@return the size {@code message} takes on the wire, fixed header included}
     *
     * @param message a packet
     * @throws EncoderException if it cannot be encoded in this connection's version
     */
    public int encodedSize(MqttMessage message) {
        return MqttPacketWriter.encodedSize(message, encodingVersion());
    }

    /** {@return the largest packet the peer accepts, {@code Long.MAX_VALUE} until it says} */
    public long peerMaxPacketSize() {
        return peerMaxPacketSize;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        try {
            MqttMessage message = tryDecode(in);
            if (message != null) {
                out.add(message);
            }
        } catch (RuntimeException e) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw e;
        }
    }

    /** Decodes one packet if it has all arrived, else consumes nothing and returns null. */
    private MqttMessage tryDecode(ByteBuf in) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        if (readable < 2) {
            return null;
        }
        int first = in.getUnsignedByte(start);
        MqttPacketType type = checkType(first >> 4, first & 0x0f);
        // The remaining length, read in place: it is at most four bytes, so re-reading costs less than a state.
        int remaining = 0;
        int headerSize = 1;
        while (true) {
            if (headerSize == readable) {
                return null;
            }
            int b = in.getUnsignedByte(start + headerSize);
            if (headerSize > 1 && b == 0) {
                throw malformed("remaining length is not minimally encoded");
            }
            remaining |= (b & 0x7f) << (7 * (headerSize - 1));
            headerSize++;
            if ((b & 0x80) == 0) {
                break;
            }
            if (headerSize == 5) {
                throw malformed("remaining length is longer than four bytes");
            }
        }
        long packetSize = (long) headerSize + remaining;
        if (packetSize > maxPacketSize) {
            throw new MqttPacketTooLargeException(packetSize, maxPacketSize);
        }
        if (readable < packetSize) {
            return null;
        }
        // The reader sees exactly the body: the cumulation's writer index is moved to the packet's end
        // for the read and put back after, which bounds every read as a slice would, without one per packet.
        int end = start + (int) packetSize;
        int writerIndex = in.writerIndex();
        in.readerIndex(start + headerSize).writerIndex(end);
        MqttMessage message;
        try {
            if (type == MqttPacketType.CONNECT) {
                MqttVersion asked = MqttPacketReader.readVersion(in);
                version = asked;
                reader = new MqttPacketReader(asked, maxListEntries);
            }
            message = reader.read(type, first & 0x0f, in);
        } finally {
            in.writerIndex(writerIndex).readerIndex(end);
        }
        learnPeerLimit(message);
        return message;
    }

    /** Checks what the first byte alone tells: the type is known, may travel this way now, and has its fixed flags. */
    private MqttPacketType checkType(int code, int flags) {
        MqttPacketType type = MqttPacketType.ofCode(code);
        if (type == null) {
            throw malformed("reserved packet type 0");
        }
        if (server ? !type.toServer() : !type.toClient()) {
            throw protocolError(type + " cannot be sent " + (server ? "to a server" : "to a client"));
        }
        if (server && (version == null) != (type == MqttPacketType.CONNECT)) {
            throw protocolError(version == null ? "the first packet is " + type + ", not CONNECT" : "a second CONNECT");
        }
        if (version != null && !version.isV5()
                && (type == MqttPacketType.AUTH || (!server && type == MqttPacketType.DISCONNECT))) {
            throw malformed(type + " does not exist in MQTT 3.1.1 " + (server ? "" : "from a server"));
        }
        if (type.fixedFlags() >= 0 && flags != type.fixedFlags()) {
            throw malformed(type + " with fixed header flags 0x" + Integer.toHexString(flags) + ", expected 0x"
                    + Integer.toHexString(type.fixedFlags()));
        }
        return type;
    }

    private void learnPeerLimit(MqttMessage message) {
        MqttProperties properties = message instanceof MqttConnect c ? c.properties()
                : message instanceof MqttConnAck a ? a.properties() : null;
        if (properties != null) {
            peerMaxPacketSize = properties.number(MqttPropertyId.MAXIMUM_PACKET_SIZE, Long.MAX_VALUE);
        }
    }

    /**
     * Encodes {@link MqttMessage}s into a buffer of their exact size; passes anything else on. A
     * server that has not received CONNECT yet (refusing a bad one) answers in 3.1.1 form, the one
     * every client reads.
     */
    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
        if (!(msg instanceof MqttMessage message)) {
            ctx.write(msg, promise);
            return;
        }
        ByteBuf buf;
        try {
            MqttVersion encoding = encodingVersion();
            if (message instanceof MqttConnect connect && !server) {
                encoding = connect.version();
            }
            int bodySize = MqttPacketWriter.bodySize(message, encoding);
            int size = 1 + MqttWire.variableByteSize(bodySize) + bodySize;
            if (size > peerMaxPacketSize) {
                throw new EncoderException(message.type() + " of " + size + " bytes is larger than the peer's maximum packet size "
                        + peerMaxPacketSize);
            }
            buf = ctx.alloc().ioBuffer(size);
            try {
                MqttPacketWriter.write(message, encoding, bodySize, buf);
            } catch (RuntimeException e) {
                buf.release();
                throw e;
            }
        } catch (RuntimeException e) {
            ReferenceCountUtil.release(message);
            promise.tryFailure(e instanceof EncoderException ? e : new EncoderException(e));
            return;
        }
        ReferenceCountUtil.release(message);
        ctx.write(buf, promise);
    }

    private MqttVersion encodingVersion() {
        return version != null ? version : MqttVersion.V3_1_1;
    }
}
