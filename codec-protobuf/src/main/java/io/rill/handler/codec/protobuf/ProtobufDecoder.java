package io.rill.handler.codec.protobuf;

import java.io.IOException;
import java.util.List;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.ExtensionRegistryLite;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.MessageToMessageDecoder;
import io.rill.handler.codec.TooLongFrameException;

/**
 * Parses each inbound {@link ByteBuf} frame, whole, as one message of the prototype's type; a
 * framing decoder such as {@code ProtobufVarint32FrameDecoder} must come first. A heap frame is
 * read in place through its array, a direct one through its {@code ByteBuffer} when over 16 KiB,
 * and copied to an array below that (protobuf's array reader is the faster one for small messages).
 *
 * <p>Bounds: a frame over {@code maxMessageBytes} fails with {@link TooLongFrameException} before
 * any parsing; nesting deeper than {@code recursionLimit} and any malformed input fail with
 * {@link ProtobufDecoderException}. The frame is released either way and the next one decodes as
 * usual: the framing, not this decoder, knows where messages end. Stateless, so sharable.
 */
@ChannelHandler.Sharable
public final class ProtobufDecoder extends MessageToMessageDecoder<ByteBuf> {

    /** gRPC's default bound on an inbound message. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 4 << 20;
    /** protobuf-java's own default. */
    public static final int DEFAULT_RECURSION_LIMIT = 100;

    /**
     * Direct frames up to this size are copied to an array first: protobuf's array reader decodes
     * strings straight from it, where its direct-buffer reader takes a temporary array per string,
     * so for small messages the one copy allocates less and parses faster. Larger frames are read
     * in place.
     */
    private static final int COPY_BELOW = 16 * 1024;

    private final Parser<? extends MessageLite> parser;
    private final String typeName;
    private final ExtensionRegistryLite extensions;
    private final int maxMessageBytes;
    private final int recursionLimit;

    /**
     * Messages of {@code prototype}'s type, without extensions, within the default bounds.
     *
     * @param prototype e.g. {@code MyMessage.getDefaultInstance()}
     */
    public ProtobufDecoder(MessageLite prototype) {
        this(builder(prototype));
    }

    private ProtobufDecoder(Builder b) {
        super(ByteBuf.class);
        this.parser = b.prototype.getParserForType();
        this.typeName = b.prototype.getClass().getName();
        this.extensions = b.extensions;
        this.maxMessageBytes = b.maxMessageBytes;
        this.recursionLimit = b.recursionLimit;
    }

    /**
     * Starts a builder.
     *
     * @param prototype e.g. {@code MyMessage.getDefaultInstance()}
     * @return a builder with no extensions, {@link #DEFAULT_MAX_MESSAGE_BYTES} and {@link #DEFAULT_RECURSION_LIMIT}
     */
    public static Builder builder(MessageLite prototype) {
        return new Builder(prototype);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) throws Exception {
        int length = frame.readableBytes();
        if (length > maxMessageBytes) {
            throw new TooLongFrameException("a " + typeName + " of " + length + " bytes is over maxMessageBytes ("
                    + maxMessageBytes + ")");
        }
        CodedInputStream in = input(frame, length);
        in.setRecursionLimit(recursionLimit);
        try {
            MessageLite message = parser.parseFrom(in, extensions);
            in.checkLastTagWas(0);
            out.add(message);
        } catch (InvalidProtocolBufferException e) {
            throw new ProtobufDecoderException("not a valid " + typeName + " (" + length + " bytes): " + e.getMessage(), e);
        }
    }

    private static CodedInputStream input(ByteBuf frame, int length) throws IOException {
        if (frame.hasArray()) {
            return CodedInputStream.newInstance(frame.array(), frame.arrayOffset() + frame.readerIndex(), length);
        }
        if (length > COPY_BELOW && frame.nioBufferCount() == 1) {
            return CodedInputStream.newInstance(frame.nioBuffer(frame.readerIndex(), length));
        }
        byte[] copy = new byte[length];
        frame.getBytes(frame.readerIndex(), copy);
        return CodedInputStream.newInstance(copy);
    }

    /** Settings of a {@link ProtobufDecoder}; not thread-safe, used once. */
    public static final class Builder {
        private final MessageLite prototype;
        private ExtensionRegistryLite extensions = ExtensionRegistryLite.getEmptyRegistry();
        private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
        private int recursionLimit = DEFAULT_RECURSION_LIMIT;

        private Builder(MessageLite prototype) {
            if (prototype == null) {
                throw new NullPointerException("prototype");
            }
            this.prototype = prototype;
        }

        /**
         * The extensions to recognise.
         *
         * @param registry not null
         * @return this builder
         */
        public Builder extensionRegistry(ExtensionRegistryLite registry) {
            if (registry == null) {
                throw new NullPointerException("registry");
            }
            this.extensions = registry;
            return this;
        }

        /**
         * The largest frame parsed; a larger one fails with {@link TooLongFrameException}.
         *
         * @param max positive
         * @return this builder
         */
        public Builder maxMessageBytes(int max) {
            if (max <= 0) {
                throw new IllegalArgumentException("maxMessageBytes must be positive: " + max);
            }
            this.maxMessageBytes = max;
            return this;
        }

        /**
         * How deep messages and groups may nest.
         *
         * @param limit positive
         * @return this builder
         */
        public Builder recursionLimit(int limit) {
            if (limit <= 0) {
                throw new IllegalArgumentException("recursionLimit must be positive: " + limit);
            }
            this.recursionLimit = limit;
            return this;
        }

        /**
         * Builds the decoder.
         *
         * @return a sharable decoder
         */
        public ProtobufDecoder build() {
            return new ProtobufDecoder(this);
        }
    }
}
