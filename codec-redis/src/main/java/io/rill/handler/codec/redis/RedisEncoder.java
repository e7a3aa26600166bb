package io.rill.handler.codec.redis;

import java.nio.charset.StandardCharsets;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.MessageToByteEncoder;

/**
 * Writes any {@link RedisMessage}, RESP2 or RESP3 alike, whole aggregates and streamed pieces
 * (headers and contents, for a proxy that passes values on as they arrive). A message goes into one
 * buffer of its exact size, computed first, so the buffer never grows; numbers and lengths are
 * written as digits straight into the buffer, from a table for the common small ones, without
 * making a {@code String}. It keeps no state: one {@link #INSTANCE} serves every channel.
 *
 * <p>Whether a message suits the peer's protocol is the caller's choice: RESP3 types such as
 * {@link NullRedisMessage#NULL} or a map go to a RESP2 client as written.
 */
@ChannelHandler.Sharable
public final class RedisEncoder extends MessageToByteEncoder<RedisMessage> {

    /** The shared instance. */
    public static final RedisEncoder INSTANCE = new RedisEncoder();

    private static final short CRLF = ('\r' << 8) | '\n';

    private RedisEncoder() {
        super(RedisMessage.class, true);
    }

    @Override
    protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, RedisMessage msg, boolean preferDirect) {
        int size = encodedSize(msg);
        return preferDirect ? ctx.alloc().ioBuffer(size) : ctx.alloc().heapBuffer(size);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, RedisMessage msg, ByteBuf out) {
        write(msg, out);
    }

    /** A streamed string's chunks are framed ({@code ;N}), which its loose pieces cannot say. */
    private static void refuseStreamed(BulkStringHeaderRedisMessage header) {
        if (header.isStreamed()) {
            throw new IllegalArgumentException("a streamed string header (the encoder writes no chunks: encode the "
                    + "aggregated FullBulkStringRedisMessage)");
        }
    }

    /**
     * How many bytes {@link #write} writes for {@code msg}.
     *
     * @param msg any message
     * @return its encoded size
     */
    public static int encodedSize(RedisMessage msg) {
        if (msg instanceof FullBulkStringRedisMessage bulk) {
            int length = bulk.content().readableBytes();
            return 1 + RedisNumbers.digits(length) + 2 + length + 2;
        } else if (msg instanceof AggregateRedisMessage aggregate) {
            int size = 1 + RedisNumbers.digits(aggregate.children().size() / aggregate.type().elementsPerEntry()) + 2;
            for (RedisMessage child : aggregate.children()) {
                size += encodedSize(child);
            }
            return size;
        } else if (msg instanceof SimpleStringRedisMessage simple) {
            return 1 + ByteBufUtil.utf8Bytes(simple.content()) + 2;
        } else if (msg instanceof IntegerRedisMessage integer) {
            return 1 + RedisNumbers.digits(integer.value()) + 2;
        } else if (msg instanceof ErrorRedisMessage error) {
            return 1 + ByteBufUtil.utf8Bytes(error.content()) + 2;
        } else if (msg instanceof NullRedisMessage nul) {
            return nul == NullRedisMessage.NULL ? 3 : 5;
        } else if (msg instanceof BulkStringHeaderRedisMessage header) {
            refuseStreamed(header);
            return 1 + RedisNumbers.digits(header.length()) + 2;
        } else if (msg instanceof BulkStringRedisContent content) {
            return content.content().readableBytes() + (content.isLast() ? 2 : 0);
        } else if (msg instanceof AggregateHeaderRedisMessage header) {
            return header.isStreamed() ? 4 : 1 + RedisNumbers.digits(header.length()) + 2;
        } else if (msg instanceof StreamEndRedisMessage) {
            return 3;
        } else if (msg instanceof DoubleRedisMessage dbl) {
            return 1 + doubleText(dbl.value()).length() + 2;
        } else if (msg instanceof BooleanRedisMessage) {
            return 4;
        } else if (msg instanceof BigNumberRedisMessage big) {
            return 1 + big.digits().length() + 2;
        } else if (msg instanceof VerbatimStringRedisMessage verbatim) {
            int length = 4 + ByteBufUtil.utf8Bytes(verbatim.text());
            return 1 + RedisNumbers.digits(length) + 2 + length + 2;
        } else if (msg instanceof BulkErrorRedisMessage error) {
            int length = ByteBufUtil.utf8Bytes(error.content());
            return 1 + RedisNumbers.digits(length) + 2 + length + 2;
        }
        throw new IllegalArgumentException("not a message this encoder knows: " + msg.getClass().getName());
    }

    /**
     * Writes {@code msg} to {@code out}; ownership of {@code msg} stays with the caller.
     *
     * @param msg any message
     * @param out where its bytes go
     */
    public static void write(RedisMessage msg, ByteBuf out) {
        // The most frequent first: commands are arrays of bulk strings; replies mostly simple strings,
        // integers and bulk strings.
        if (msg instanceof FullBulkStringRedisMessage bulk) {
            ByteBuf content = bulk.content();
            out.writeByte('$');
            RedisNumbers.writeDecimal(out, content.readableBytes());
            out.writeShort(CRLF);
            out.writeBytes(content, content.readerIndex(), content.readableBytes());
            out.writeShort(CRLF);
        } else if (msg instanceof AggregateRedisMessage aggregate) {
            out.writeByte(aggregate.type().typeByte());
            RedisNumbers.writeDecimal(out, aggregate.children().size() / aggregate.type().elementsPerEntry());
            out.writeShort(CRLF);
            for (RedisMessage child : aggregate.children()) {
                write(child, out);
            }
        } else if (msg instanceof SimpleStringRedisMessage simple) {
            line(out, '+', simple.content());
        } else if (msg instanceof IntegerRedisMessage integer) {
            out.writeByte(':');
            RedisNumbers.writeDecimal(out, integer.value());
            out.writeShort(CRLF);
        } else if (msg instanceof ErrorRedisMessage error) {
            line(out, '-', error.content());
        } else if (msg instanceof NullRedisMessage nul) {
            switch (nul) {
                case NULL -> out.writeByte('_');
                case NULL_BULK_STRING -> out.writeByte('$').writeShort(('-' << 8) | '1');
                case NULL_ARRAY -> out.writeByte('*').writeShort(('-' << 8) | '1');
            }
            out.writeShort(CRLF);
        } else if (msg instanceof BulkStringHeaderRedisMessage header) {
            refuseStreamed(header);
            out.writeByte('$');
            RedisNumbers.writeDecimal(out, header.length());
            out.writeShort(CRLF);
        } else if (msg instanceof BulkStringRedisContent content) {
            out.writeBytes(content.content(), content.content().readerIndex(), content.content().readableBytes());
            if (content.isLast()) {
                out.writeShort(CRLF);
            }
        } else if (msg instanceof AggregateHeaderRedisMessage header) {
            out.writeByte(header.type().typeByte());
            if (header.isStreamed()) {
                out.writeByte('?');
            } else {
                RedisNumbers.writeDecimal(out, header.length());
            }
            out.writeShort(CRLF);
        } else if (msg instanceof StreamEndRedisMessage) {
            out.writeByte('.').writeShort(CRLF);
        } else if (msg instanceof DoubleRedisMessage dbl) {
            out.writeByte(',');
            out.writeCharSequence(doubleText(dbl.value()), StandardCharsets.US_ASCII);
            out.writeShort(CRLF);
        } else if (msg instanceof BooleanRedisMessage bool) {
            out.writeByte('#').writeByte(bool.value() ? 't' : 'f').writeShort(CRLF);
        } else if (msg instanceof BigNumberRedisMessage big) {
            out.writeByte('(');
            out.writeCharSequence(big.digits(), StandardCharsets.US_ASCII);
            out.writeShort(CRLF);
        } else if (msg instanceof VerbatimStringRedisMessage verbatim) {
            out.writeByte('=');
            RedisNumbers.writeDecimal(out, 4 + ByteBufUtil.utf8Bytes(verbatim.text()));
            out.writeShort(CRLF);
            out.writeCharSequence(verbatim.format(), StandardCharsets.US_ASCII);
            out.writeByte(':');
            ByteBufUtil.writeUtf8(out, verbatim.text());
            out.writeShort(CRLF);
        } else if (msg instanceof BulkErrorRedisMessage error) {
            out.writeByte('!');
            RedisNumbers.writeDecimal(out, ByteBufUtil.utf8Bytes(error.content()));
            out.writeShort(CRLF);
            ByteBufUtil.writeUtf8(out, error.content());
            out.writeShort(CRLF);
        } else {
            throw new IllegalArgumentException("not a message this encoder knows: " + msg.getClass().getName());
        }
    }

    private static void line(ByteBuf out, char type, String content) {
        out.writeByte(type);
        ByteBufUtil.writeUtf8(out, content);
        out.writeShort(CRLF);
    }

    /** RESP3's spelling: {@code inf}, {@code -inf}, {@code nan}, else Java's shortest round-trip decimal. */
    private static String doubleText(double value) {
        if (Double.isNaN(value)) {
            return "nan";
        } else if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        return Double.toString(value);
    }
}
