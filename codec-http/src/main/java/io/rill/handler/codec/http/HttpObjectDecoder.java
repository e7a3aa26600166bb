package io.rill.handler.codec.http;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.ByteToMessageDecoder;
import io.rill.handler.codec.DecoderResult;

/**
 * Decodes HTTP/1.1 messages: a head ({@link HttpRequest} or {@link HttpResponse}), then the body
 * as {@link HttpContent} pieces of at most {@code maxChunkSize} bytes, then a
 * {@link LastHttpContent} (with trailer fields after a chunked body). A message without a body is
 * its head and {@link LastHttpContent#EMPTY_LAST_CONTENT}.
 *
 * <pre>
 *   SKIP_EMPTY_LINES -> START_LINE -> HEADERS -+-> (no body) ---------------------------+
 *                                              +-> FIXED_LENGTH ------------------------+
 *                                              +-> CHUNK_SIZE -> CHUNK_DATA, and back   +--> SKIP_EMPTY_LINES
 *                                              |       +-> TRAILERS --------------------+
 *                                              +-> UNTIL_CLOSE (responses only)
 *   any error -> BAD_MESSAGE (the rest of the input is discarded)
 * </pre>
 *
 * <p>Input that breaks the grammar or a limit never reaches the application as a valid message:
 * the decoder emits one object whose {@link DecoderResult} failed with an
 * {@link HttpDecoderException} (which names the status to answer with and quotes the input) and
 * discards everything after it; {@link HttpServerCodec} answers and closes. Bodies are slices of
 * the input, not copies. Well-known field names come as the lower-case constants of
 * {@link HttpHeaderNames} (names are case-insensitive), so they cost no allocation.
 */
public abstract class HttpObjectDecoder extends ByteToMessageDecoder {

    enum State {
        SKIP_EMPTY_LINES, START_LINE, HEADERS, FIXED_LENGTH, CHUNK_SIZE, CHUNK_DATA, CHUNK_DATA_END, TRAILERS,
        UNTIL_CLOSE, BAD_MESSAGE, UPGRADED
    }

    final HttpDecoderConfig config;
    private final HttpHeadParser lines = new HttpHeadParser();
    private State state = State.SKIP_EMPTY_LINES;
    /** The message whose head is being read; null between messages. */
    private HttpMessage message;
    /** The fields of the head being read, moved into its message when the head is complete. */
    private final HttpHeaders headFields = new HttpHeaders(false);
    /** The field array the last head took: the next one shares it when its fields are the same objects. */
    private CharSequence[] lastFields;
    /** Trailer fields of the chunked body being read; null until the last chunk. */
    private HttpHeaders trailers;
    /** Bytes of the header (or trailer) section so far, against maxHeaderSize. */
    private int headerBytes;
    /** Body bytes still to come: of a fixed-length body, or of the current chunk. */
    private long remaining;

    /**
     * Creates a decoder with the given limits and strictness.
     *
     * @param config the limits (line, header and chunk sizes) and the rules to apply; not null
     * @throws NullPointerException if {@code config} is null
     */
    protected HttpObjectDecoder(HttpDecoderConfig config) {
        if (config == null) {
            throw new NullPointerException("config");
        }
        this.config = config;
    }

    /**
     * Parses a start line of {@code length} bytes at {@code at} into a message head with empty headers.
     *
     * @param in     the cumulation; read at absolute indexes, not consumed, not released
     * @param at     the index of the line's first byte
     * @param length the line's length, CRLF excluded
     * @return the new message head
     * @throws HttpDecoderException if the line breaks the grammar
     */
    protected abstract HttpMessage parseStartLine(ByteBuf in, int at, int length);

    /**
     * The status for a start line that is too long (414 for requests).
     *
     * @return the status to refuse it with
     */
    protected abstract HttpResponseStatus startLineTooLongStatus();

    /**
     * Decides how the body of {@code message} (headers complete) is framed, or throws if the
     * headers make that ambiguous.
     *
     * @param message the head just decoded
     * @return how its body is delimited
     * @throws HttpDecoderException if the framing fields are invalid or contradict each other
     */
    protected abstract BodyFraming framing(HttpMessage message);

    /**
     * A placeholder head for a message rejected before its start line was understood.
     *
     * @return a new head, to carry the failed {@link DecoderResult}
     */
    protected abstract HttpMessage invalidMessage();

    /** How a body is delimited. */
    protected enum BodyFraming {
        /** The message has no body. */
        NONE,
        /** The body is {@code Content-Length} bytes long. */
        FIXED_LENGTH,
        /** The body is in the chunked transfer coding. */
        CHUNKED,
        /** The body runs until the connection closes (responses only). */
        UNTIL_CLOSE,
        /** The connection switches protocols: what follows is passed on as raw bytes. */
        UPGRADE
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        try {
            decodeAvailable(in, out);
        } catch (HttpDecoderException e) {
            fail(in, out, e);
        }
    }

    private void decodeAvailable(ByteBuf in, List<Object> out) {
        while (in.isReadable()) {
            switch (state) {
                case SKIP_EMPTY_LINES -> {
                    if (!skipEmptyLines(in)) {
                        return;
                    }
                }
                case START_LINE -> {
                    if (!readStartLine(in)) {
                        return;
                    }
                }
                case HEADERS -> {
                    if (!readHeaders(in, out)) {
                        return;
                    }
                }
                case FIXED_LENGTH -> readFixedLength(in, out);
                case CHUNK_SIZE -> {
                    if (!readChunkSize(in)) {
                        return;
                    }
                }
                case CHUNK_DATA -> readChunkData(in, out);
                case CHUNK_DATA_END -> {
                    if (!readChunkDataEnd(in)) {
                        return;
                    }
                }
                case TRAILERS -> {
                    if (!readTrailers(in, out)) {
                        return;
                    }
                }
                case UNTIL_CLOSE -> out.add(new DefaultHttpContent(in.readRetainedSlice(
                        Math.min(in.readableBytes(), config.maxChunkSize()))));
                case UPGRADED -> out.add(in.readRetainedSlice(in.readableBytes()));
                case BAD_MESSAGE -> in.skipBytes(in.readableBytes());
                default -> throw new IllegalStateException(state.name());
            }
        }
    }

    /**
     * RFC 9112 §2.2: empty lines (CRLF) before a start line are ignored, and nothing else: other
     * control bytes there are an error (CVE-2026-50020). Bounded by the start-line limit.
     */
    private boolean skipEmptyLines(ByteBuf in) {
        while (in.readableBytes() >= 2 && in.getByte(in.readerIndex()) == '\r' && in.getByte(in.readerIndex() + 1) == '\n') {
            in.skipBytes(2);
            headerBytes += 2;
            if (headerBytes > config.maxInitialLineLength()) {
                throw new TooLongHttpLineException(startLineTooLongStatus(), "more than "
                        + config.maxInitialLineLength() + " bytes of empty lines before a start line");
            }
        }
        if (!in.isReadable() || in.readableBytes() == 1 && in.getByte(in.readerIndex()) == '\r') {
            return false; // all skipped, or half of an empty line
        }
        headerBytes = 0;
        state = State.START_LINE;
        return true;
    }

    private boolean readStartLine(ByteBuf in) {
        int length = lines.nextLine(in, config.maxInitialLineLength(), startLineTooLongStatus(), "start line");
        if (length < 0) {
            return false;
        }
        message = parseStartLine(in, in.readerIndex(), length);
        in.skipBytes(length + 2);
        state = State.HEADERS;
        return true;
    }

    private boolean readHeaders(ByteBuf in, List<Object> out) {
        while (true) {
            int length = nextFieldLine(in, "header section");
            if (length < 0) {
                return false;
            }
            if (length == 0) {
                in.skipBytes(2);
                break;
            }
            lines.parseFieldLine(in, in.readerIndex(), length, headFields);
            in.skipBytes(length + 2);
        }
        HttpMessage head = message;
        lastFields = head.headers().moveFieldsFrom(headFields, lastFields);
        BodyFraming framing = framing(head);
        headerBytes = 0;
        switch (framing) {
            case NONE -> {
                out.add(head);
                out.add(LastHttpContent.EMPTY_LAST_CONTENT);
                resetForNextMessage();
            }
            case FIXED_LENGTH -> {
                remaining = HttpUtil.getContentLength(head, 0);
                out.add(head);
                if (remaining == 0) {
                    out.add(LastHttpContent.EMPTY_LAST_CONTENT);
                    resetForNextMessage();
                } else {
                    state = State.FIXED_LENGTH;
                }
            }
            case CHUNKED -> {
                out.add(head);
                state = State.CHUNK_SIZE;
            }
            case UNTIL_CLOSE -> {
                out.add(head);
                state = State.UNTIL_CLOSE;
            }
            case UPGRADE -> {
                out.add(head);
                out.add(LastHttpContent.EMPTY_LAST_CONTENT);
                message = null;
                state = State.UPGRADED;
            }
            default -> throw new IllegalStateException(framing.name());
        }
        return true;
    }

    /** The next field line of a header or trailer section, counted against maxHeaderSize. */
    private int nextFieldLine(ByteBuf in, String what) {
        int allowance = config.maxHeaderSize() - headerBytes;
        int length;
        try {
            length = lines.nextLine(in, Math.max(0, allowance - 2), HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, what);
        } catch (TooLongHttpLineException e) {
            throw new TooLongHttpHeaderException(what + " larger than " + config.maxHeaderSize() + " bytes");
        }
        if (length >= 0) {
            headerBytes += length + 2;
        }
        return length;
    }

    private void readFixedLength(ByteBuf in, List<Object> out) {
        int n = (int) Math.min(Math.min(remaining, in.readableBytes()), config.maxChunkSize());
        ByteBuf piece = in.readRetainedSlice(n);
        remaining -= n;
        if (remaining == 0) {
            out.add(new DefaultLastHttpContent(piece, HttpHeaders.EMPTY));
            resetForNextMessage();
        } else {
            out.add(new DefaultHttpContent(piece));
        }
    }

    private boolean readChunkSize(ByteBuf in) {
        int length = lines.nextLine(in, config.maxInitialLineLength(), HttpResponseStatus.BAD_REQUEST, "chunk-size line");
        if (length < 0) {
            return false;
        }
        int size = ChunkLineParser.parse(in, in.readerIndex(), length);
        in.skipBytes(length + 2);
        if (size == 0) {
            trailers = new HttpHeaders(false);
            state = State.TRAILERS;
        } else {
            remaining = size;
            state = State.CHUNK_DATA;
        }
        return true;
    }

    private void readChunkData(ByteBuf in, List<Object> out) {
        int n = (int) Math.min(Math.min(remaining, in.readableBytes()), config.maxChunkSize());
        out.add(new DefaultHttpContent(in.readRetainedSlice(n)));
        remaining -= n;
        if (remaining == 0) {
            state = State.CHUNK_DATA_END;
        }
    }

    /** Chunk data ends with exactly CRLF (CVE-2025-58056: anything else is a smuggling attempt). */
    private boolean readChunkDataEnd(ByteBuf in) {
        if (in.readableBytes() < 2) {
            if (in.getByte(in.readerIndex()) != '\r') {
                throw HttpHeadParser.bad("chunk data not followed by CRLF", in, in.readerIndex(), 1);
            }
            return false;
        }
        if (in.getByte(in.readerIndex()) != '\r' || in.getByte(in.readerIndex() + 1) != '\n') {
            throw HttpHeadParser.bad("chunk data not followed by CRLF", in, in.readerIndex(), Math.min(in.readableBytes(), 16));
        }
        in.skipBytes(2);
        state = State.CHUNK_SIZE;
        return true;
    }

    /** The trailer section: field lines, bounded like the header section, then an empty line; no framing fields. */
    private boolean readTrailers(ByteBuf in, List<Object> out) {
        while (true) {
            int length = nextFieldLine(in, "trailer section");
            if (length < 0) {
                return false;
            }
            if (length == 0) {
                in.skipBytes(2);
                break;
            }
            lines.parseFieldLine(in, in.readerIndex(), length, trailers);
            in.skipBytes(length + 2);
        }
        if (trailers.contains(HttpHeaderNames.CONTENT_LENGTH) || trailers.contains(HttpHeaderNames.TRANSFER_ENCODING)) {
            // RFC 9110 §6.5.1: framing fields cannot be trailers; one there is meant to reframe the
            // message for whoever merges trailers into the header section (llhttp and h11 refuse it too).
            throw new HttpDecoderException(HttpResponseStatus.BAD_REQUEST,
                    "Content-Length or Transfer-Encoding in the trailer section");
        }
        out.add(trailers.isEmpty() ? LastHttpContent.EMPTY_LAST_CONTENT
                : new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER, trailers));
        resetForNextMessage();
        return true;
    }

    private void resetForNextMessage() {
        message = null;
        trailers = null;
        headerBytes = 0;
        remaining = 0;
        lines.reset();
        state = State.SKIP_EMPTY_LINES;
    }

    /**
     * Emits the failure once, as a failed head if the head was not passed on yet, else as a failed
     * last content, and discards all further input.
     */
    private void fail(ByteBuf in, List<Object> out, HttpDecoderException cause) {
        in.skipBytes(in.readableBytes());
        boolean headSent = state.compareTo(State.HEADERS) > 0;
        state = State.BAD_MESSAGE;
        if (headSent) {
            LastHttpContent last = new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
            last.setDecoderResult(DecoderResult.failure(cause));
            out.add(last);
        } else {
            HttpMessage head = message != null ? message : invalidMessage();
            lastFields = head.headers().moveFieldsFrom(headFields, lastFields); // what was read of the head, for whoever logs it
            head.setDecoderResult(DecoderResult.failure(cause));
            out.add(head);
            out.add(LastHttpContent.EMPTY_LAST_CONTENT);
        }
        message = null;
    }

    /** A body delimited by the connection's end is complete when the peer closes. */
    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        super.decodeLast(ctx, in, out);
        if (state == State.UNTIL_CLOSE) {
            out.add(LastHttpContent.EMPTY_LAST_CONTENT);
            resetForNextMessage();
        } else if (state != State.SKIP_EMPTY_LINES && state != State.BAD_MESSAGE && state != State.UPGRADED) {
            fail(in, out, new HttpDecoderException(HttpResponseStatus.BAD_REQUEST,
                    "connection closed in the middle of a message (" + state + ")"));
        }
    }

    /** Where the decoder is in a message, for a server's timeouts. */
    enum Progress { BETWEEN, HEAD, BODY, DONE }

    final Progress progress() {
        return switch (state) {
            case SKIP_EMPTY_LINES -> Progress.BETWEEN;
            case START_LINE, HEADERS -> Progress.HEAD;
            case FIXED_LENGTH, CHUNK_SIZE, CHUNK_DATA, CHUNK_DATA_END, TRAILERS -> Progress.BODY;
            case UNTIL_CLOSE, BAD_MESSAGE, UPGRADED -> Progress.DONE;
        };
    }

    /** Gives up on the message being read: all further input is discarded, as after an error. */
    final void abandon() {
        state = State.BAD_MESSAGE;
        message = null;
    }

    /** The line parser of this connection (it remembers the previous head). */
    final HttpHeadParser parser() {
        return lines;
    }
}
