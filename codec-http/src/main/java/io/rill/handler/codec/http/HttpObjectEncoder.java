package io.rill.handler.codec.http;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.MessageToMessageEncoder;
import io.rill.util.AsciiString;

/**
 * Encodes {@link HttpObject}s into bytes: a head, then its body as given, framed by the chunked
 * coding when the head says {@code Transfer-Encoding: chunked}. A head and a small body go out in
 * one buffer (one write, one copy of at most {@value #COPY_BODY_BELOW} bytes); a larger body is
 * passed on as it is, after the head. A whole message without {@code Content-Length} or
 * {@code Transfer-Encoding} gets a {@code Content-Length}. Heads are checked as they are built (header values, request
 * targets and reason phrases cannot hold CR or LF), so nothing written here can split a message.
 *
 * @param <H> the head type: {@link HttpRequest} or {@link HttpResponse}
 */
public abstract class HttpObjectEncoder<H extends HttpMessage> extends MessageToMessageEncoder<HttpObject> {

    static final int COPY_BODY_BELOW = 1024;
    private static final short CRLF = ('\r' << 8) | '\n';
    private static final short COLON_SP = (':' << 8) | ' ';
    private static final byte[] LAST_CHUNK = "0\r\n".getBytes(StandardCharsets.US_ASCII);

    private enum State { HEAD, BODY, CHUNKED_BODY, NO_BODY }

    private State state = State.HEAD;
    /** A running estimate of head sizes, so the head buffer rarely grows. */
    private int headSizeEstimate = 256;

    /** Creates an encoder of {@link HttpObject}s; others pass through untouched. */
    protected HttpObjectEncoder() {
        super(HttpObject.class);
    }

    /**
     * Writes the start line, CRLF included.
     *
     * @param buf  the buffer the head is written into
     * @param head the message head
     */
    protected abstract void encodeStartLine(ByteBuf buf, H head);

    /**
     * Whether {@code head} can have no body whatever follows it (a response to HEAD, 1xx, 204, 304).
     *
     * @param head the message head
     * @return true if no body may follow it
     */
    protected abstract boolean isContentAlwaysEmpty(H head);

    /**
     * Whether {@code head} may carry {@code Content-Length} (not 1xx, 204 or 304); a response to
     * HEAD may, and then gives the length a GET would have had.
     *
     * @param head the message head
     * @return true if a {@code Content-Length} field may be written
     */
    protected boolean mayHaveContentLength(H head) {
        return true;
    }

    /**
     * Whether a message like {@code head} is expected to carry content, so that an empty one still
     * says {@code Content-Length: 0}; when not, an empty whole message gets no length field
     * (RFC 9110 section 8.6: a GET without content should not send {@code Content-Length: 0}).
     *
     * @param head the message head
     * @return true if an empty body is still announced with {@code Content-Length: 0}
     */
    protected boolean anticipatesContent(H head) {
        return true;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, HttpObject msg, List<Object> out) {
        ByteBuf buf = encodeTo(ctx, msg, null, out);
        if (buf != null) {
            out.add(buf);
        } else if (out.isEmpty()) {
            out.add(Unpooled.EMPTY_BUFFER); // nothing to send (an empty piece, a dropped body): still completes the write
        }
    }

    /**
     * Appends the bytes of {@code msg} to {@code buf} (allocating it if null) and returns the buffer
     * holding the last bytes written, or null. A large body goes out without a copy: then
     * {@code buf} and the body are added to {@code out}, in that order, and the bytes after the
     * body start a new buffer. The caller owns what is returned and what is in {@code out}.
     */
    @SuppressWarnings("unchecked")
    final ByteBuf encodeTo(ChannelHandlerContext ctx, HttpObject msg, ByteBuf buf, List<Object> out) {
        if (msg instanceof HttpMessage) {
            if (state != State.HEAD) {
                throw new IllegalStateException("a message head was written while the body of the previous"
                        + " message was still open: end it with a LastHttpContent first; got " + describe(msg));
            }
            H head = (H) msg;
            buf = ensure(ctx, buf, headSizeEstimate);
            int start = buf.writerIndex();
            encodeStartLine(buf, head);
            head.headers().encode(buf);
            state = isContentAlwaysEmpty(head) ? State.NO_BODY
                    : HttpUtil.isTransferEncodingChunked(head) ? State.CHUNKED_BODY : State.BODY;
            if (msg instanceof FullHttpMessage full && state != State.CHUNKED_BODY && !HttpUtil.isContentLengthSet(head)
                    && mayHaveContentLength(head) && (full.content().isReadable() || anticipatesContent(head))) {
                // A whole message knows its length: say it, or the peer could only read to the close.
                writeAscii(buf, HttpHeaderNames.CONTENT_LENGTH);
                buf.writeShort(COLON_SP);
                writeAscii(buf, Integer.toString(full.content().readableBytes()));
                buf.writeShort(CRLF);
            }
            buf.writeShort(CRLF);
            headSizeEstimate = Math.max(64, (headSizeEstimate * 3 + buf.writerIndex() - start) / 4);
        }
        if (msg instanceof HttpContent content) {
            if (state == State.HEAD) {
                throw new IllegalStateException("body written before its message head: " + describe(msg));
            }
            buf = encodeContent(ctx, content, buf, out);
            if (msg instanceof LastHttpContent) {
                state = State.HEAD;
            }
        }
        return buf;
    }

    private ByteBuf encodeContent(ChannelHandlerContext ctx, HttpContent content, ByteBuf buf, List<Object> out) {
        ByteBuf body = content.content();
        switch (state) {
            case NO_BODY:
                return buf; // a body after a head that cannot have one is dropped, as the head promised
            case BODY:
                return appendBody(ctx, buf, body, out);
            case CHUNKED_BODY:
                int length = body.readableBytes();
                if (length > 0) {
                    buf = ensure(ctx, buf, 16);
                    buf.writeCharSequence(Integer.toHexString(length), StandardCharsets.US_ASCII);
                    buf.writeShort(CRLF);
                    buf = ensure(ctx, appendBody(ctx, buf, body, out), 8);
                    buf.writeShort(CRLF);
                }
                if (content instanceof LastHttpContent last) {
                    buf = ensure(ctx, buf, 8);
                    buf.writeBytes(LAST_CHUNK);
                    last.trailingHeaders().encode(buf);
                    buf.writeShort(CRLF);
                }
                return buf;
            default:
                throw new IllegalStateException(state.name());
        }
    }

    /**
     * Copies a small body into {@code buf} and returns it; a large one is passed on as a slice
     * after {@code buf}, and null is returned (the next bytes start a new buffer).
     */
    private static ByteBuf appendBody(ChannelHandlerContext ctx, ByteBuf buf, ByteBuf body, List<Object> out) {
        int length = body.readableBytes();
        if (length == 0) {
            return buf;
        }
        if (length < COPY_BODY_BELOW) {
            buf = ensure(ctx, buf, length);
            buf.writeBytes(body, body.readerIndex(), length);
            return buf;
        }
        if (buf != null) {
            out.add(buf);
        }
        out.add(body.retainedSlice());
        return null;
    }

    private static ByteBuf ensure(ChannelHandlerContext ctx, ByteBuf buf, int size) {
        return buf != null ? buf : ctx.alloc().ioBuffer(size);
    }

    /** Writes {@code text} one byte per char (ISO-8859-1; values were checked to fit). */
    static void writeAscii(ByteBuf buf, CharSequence text) {
        if (text instanceof AsciiString a) {
            buf.writeBytes(a.array(), a.arrayOffset(), a.length());
        } else {
            buf.writeCharSequence(text, StandardCharsets.ISO_8859_1);
        }
    }

    static void writeCrlf(ByteBuf buf) {
        buf.writeShort(CRLF);
    }

    private static String describe(Object msg) {
        return msg.getClass().getSimpleName();
    }
}
