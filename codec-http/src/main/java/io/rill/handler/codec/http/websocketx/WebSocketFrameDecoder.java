package io.rill.handler.codec.http.websocketx;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.ByteToMessageDecoder;
import io.rill.util.InternalLogger;

/**
 * A strict RFC 6455 §5 frame decoder: bytes in, whole unmasked {@link WebSocketFrame}s out.
 *
 * <p>Each frame is checked as soon as the bytes that decide it arrive: the first two header bytes
 * (FIN, RSV, opcode, MASK, 7-bit length), then the extended length, then — for text — every
 * payload byte as it comes in, unmasked on the fly and fed to an incremental UTF-8 check that
 * spans the message's fragments. A frame is buffered only once its length is known to be within
 * {@link WebSocketDecoderConfig#maxFramePayload()} and its message within
 * {@link WebSocketDecoderConfig#maxMessagePayload()} (a frame of a compressed message: within
 * {@link WebSocketDecoderConfig#maxCompressedFramePayload()}, its message being measured once
 * inflated by the extension), so memory per connection is bounded by the frame limit plus a
 * 14-byte header.
 *
 * <p>Any violation fails the connection (RFC 6455 §7.1.7): the decoder writes a close frame with
 * 1002 (protocol error), 1007 (invalid UTF-8) or 1009 (too big) straight to the transport —
 * masked on a client —, closes the channel once it is written, fires a
 * {@link CorruptedWebSocketFrameException} down the pipeline and ignores every byte after. After
 * a close frame has been decoded, later bytes are ignored too (§5.5.1).
 *
 * <p>Text messages whose first frame carries RSV1 (compressed by a negotiated extension) are not
 * checked here: the extension's decoder inflates and checks them. One instance per connection,
 * event loop only.
 */
public final class WebSocketFrameDecoder extends ByteToMessageDecoder {

    private static final InternalLogger LOG = InternalLogger.get(WebSocketFrameDecoder.class);
    /** Bytes left free before an unmasked payload: the longest unmasked header (a 64-bit length). */
    static final int HEADER_ROOM = 10;
    /**
     * A frame made of the buffer it was read into keeps all of that buffer: up to this size, or
     * twice what the buffer holds, that is cheaper than a copy; beyond, the payload is copied.
     */
    private static final int MAX_PINNED_READ_BUFFER = 4096;

    private final WebSocketDecoderConfig config;
    private final Utf8Validator utf8 = new Utf8Validator();

    /** The failure to fire once this read's frames have gone downstream, so they keep their order. */
    private CorruptedWebSocketFrameException failure;
    /** Nothing more is decoded: a violation was answered, or a close frame arrived. */
    private boolean done;
    /** The current frame's header has been consumed; its payload is being awaited. */
    private boolean inPayload;
    private boolean fin;
    private int rsv;
    private int opcode;
    private int maskKey;
    private boolean masked;
    /** The current frame's payload length; within the frame limit once {@code inPayload}. */
    private int payloadLength;
    /** Payload bytes of the current frame already fed to the UTF-8 check. */
    private int scanned;
    /** The opcode (1 or 2) of the fragmented message in progress; 0 between messages. */
    private int messageOpcode;
    /** The message in progress is compressed (RSV1 on its first frame): its text is checked after inflation. */
    private boolean messageTransformed;
    /** Payload bytes of the message in progress, frames before the current one included. */
    private long messageBytes;
    /** Continuation frames of the message in progress so far. */
    private long messageFrames;

    /**
     * @param config limits, masking direction and the RSV bits extensions claim
     */
    public WebSocketFrameDecoder(WebSocketDecoderConfig config) {
        if (config == null) {
            throw new NullPointerException("config");
        }
        this.config = config;
    }

    /** @return what this decoder accepts */
    public WebSocketDecoderConfig config() {
        return config;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        super.channelRead(ctx, msg);
        CorruptedWebSocketFrameException e = failure;
        if (e != null) {
            failure = null;
            // After the frames this read decoded before the bad one: what they cause (an echo,
            // say) is written before the close frame, which is the last thing the peer gets.
            sendClose(ctx, e.closeStatus());
            ctx.fireExceptionCaught(e);
        }
    }

    private void sendClose(ChannelHandlerContext ctx, int status) {
        if (!ctx.channel().isActive()) {
            return;
        }
        CloseWebSocketFrame close = new CloseWebSocketFrame(status, null);
        try {
            ByteBuf bytes = WebSocketFrameEncoder.encodeWhole(ctx.alloc(), close, !config.expectMaskedFrames());
            ctx.writeAndFlush(bytes).addListener(f -> ctx.close());
        } finally {
            close.release();
        }
    }

    /**
     * Decodes at most one frame per call: {@link ByteToMessageDecoder} passes it on before asking
     * for the next, so a handler after this one that fails the connection on that frame (an
     * extension's inflater, through {@link #stopDecoding()}) stops the decoding right there, and
     * the rest of the read is dropped as it would be had it arrived after the close.
     */
    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (!done && (inPayload || readHeader(ctx, in))) {
            readPayload(ctx, in, out);
        }
        if (done) {
            in.skipBytes(in.readableBytes());
        }
    }

    /**
     * Ignores every byte received from now on, the rest of the current read included, without
     * answering or reporting anything: for a handler further on that failed the connection itself
     * (docs/security-cases.md, case WS-23), so the peer gets one close frame and the application
     * one error. Event loop only.
     */
    public void stopDecoding() {
        done = true;
        inPayload = false;
    }

    /** Consumes a whole header once it is complete; fails the connection at the first bad bit. */
    private boolean readHeader(ChannelHandlerContext ctx, ByteBuf in) {
        int available = in.readableBytes();
        if (available < 2) {
            return false;
        }
        int at = in.readerIndex();
        int b0 = in.getUnsignedByte(at);
        int b1 = in.getUnsignedByte(at + 1);
        if (!checkFirstBytes(ctx, in, b0, b1)) {
            return false;
        }
        int length7 = b1 & 0x7F;
        int headerLength = 2 + (length7 == 126 ? 2 : length7 == 127 ? 8 : 0) + (masked ? 4 : 0);
        if (available < headerLength) {
            return false;
        }
        long length = length7;
        if (length7 == 126) {
            length = in.getUnsignedShort(at + 2);
            if (length < 126) {
                return fail(ctx, in, CloseWebSocketFrame.PROTOCOL_ERROR, "16-bit length " + length + " fits in 7 bits");
            }
        } else if (length7 == 127) {
            length = in.getLong(at + 2);
            if (length < 0) {
                return fail(ctx, in, CloseWebSocketFrame.PROTOCOL_ERROR, "64-bit length with the top bit set");
            }
            if (length <= 0xFFFF) {
                return fail(ctx, in, CloseWebSocketFrame.PROTOCOL_ERROR, "64-bit length " + length + " fits in 16 bits");
            }
        }
        if (!checkLength(ctx, in, length)) {
            return false;
        }
        maskKey = masked ? in.getInt(at + headerLength - 4) : 0;
        in.skipBytes(headerLength);
        payloadLength = (int) length;
        scanned = 0;
        if (opcode == 0x1) {
            utf8.reset(); // a new text message
        }
        inPayload = true;
        return true;
    }

    /** FIN, RSV, opcode and MASK: RFC 6455 §5.2, §5.4 (fragments) and §5.5 (control frames). */
    private boolean checkFirstBytes(ChannelHandlerContext ctx, ByteBuf in, int b0, int b1) {
        fin = (b0 & 0x80) != 0;
        rsv = (b0 >> 4) & 7;
        opcode = b0 & 0x0F;
        masked = (b1 & 0x80) != 0;
        boolean control = opcode >= 0x8;
        if (opcode != 0x0 && opcode != 0x1 && opcode != 0x2 && opcode != 0x8 && opcode != 0x9 && opcode != 0xA) {
            return fail(ctx, in, CloseWebSocketFrame.PROTOCOL_ERROR, "reserved opcode 0x" + Integer.toHexString(opcode));
        }
        if (rsv != 0 && (control || (rsv & ~config.allowedRsv()) != 0)) {
            return fail(ctx, in, CloseWebSocketFrame.PROTOCOL_ERROR, "RSV bits " + rsv + " on opcode 0x"
                    + Integer.toHexString(opcode) + " without an extension that claims them");
        }
        if (masked != config.expectMaskedFrames()) {
            return fail(ctx, in, CloseWebSocketFrame.PROTOCOL_ERROR, masked
                    ? "masked frame from a server (RFC 6455 §5.1)" : "unmasked frame from a client (RFC 6455 §5.1)");
        }
        if (control && !fin) {
            return fail(ctx, in, CloseWebSocketFrame.PROTOCOL_ERROR, "fragmented control frame, opcode 0x"
                    + Integer.toHexString(opcode));
        }
        if (control && (b1 & 0x7F) > 125) {
            return fail(ctx, in, CloseWebSocketFrame.PROTOCOL_ERROR, "control frame longer than 125 bytes");
        }
        if (opcode == 0x0 && messageOpcode == 0) {
            return fail(ctx, in, CloseWebSocketFrame.PROTOCOL_ERROR, "continuation frame without a message to continue");
        }
        if ((opcode == 0x1 || opcode == 0x2) && messageOpcode != 0) {
            return fail(ctx, in, CloseWebSocketFrame.PROTOCOL_ERROR, "new data frame inside a fragmented message");
        }
        if (opcode == 0x8 && (b1 & 0x7F) == 1) {
            return fail(ctx, in, CloseWebSocketFrame.PROTOCOL_ERROR, "close frame with a 1-byte payload");
        }
        return true;
    }

    /**
     * The frame and message limits, before a byte of the payload is buffered. A frame of a
     * compressed message is held to the compressed frame limit, and its message is left to the
     * extension, which counts what it inflates to: the wire length of compressed data says little
     * about its size, and incompressible data comes out a few bytes longer than it went in.
     */
    private boolean checkLength(ChannelHandlerContext ctx, ByteBuf in, long length) {
        if (opcode == 0x0 && ++messageFrames > maxMessageFrames()) {
            // Empty fragments add no bytes but cost a frame's work each: a million of them held a loop.
            return fail(ctx, in, CloseWebSocketFrame.MESSAGE_TOO_BIG, "message of more than " + maxMessageFrames()
                    + " frames: a message may take maxMessagePayload / 16 frames (" + config.maxMessagePayload()
                    + " / 16), and 4096 whatever the limit");
        }
        boolean compressed = opcode == 0x0 ? messageTransformed : opcode < 0x8 && (rsv & WebSocketFrame.RSV1) != 0;
        if (compressed) {
            if (length > config.maxCompressedFramePayload()) {
                return fail(ctx, in, CloseWebSocketFrame.MESSAGE_TOO_BIG, "compressed frame of " + length
                        + " bytes exceeds " + config.maxCompressedFramePayload() + ", the compressed bound of maxFramePayload "
                        + config.maxFramePayload());
            }
            return true;
        }
        if (length > config.maxFramePayload()) {
            return fail(ctx, in, CloseWebSocketFrame.MESSAGE_TOO_BIG, "frame of " + length + " bytes exceeds maxFramePayload "
                    + config.maxFramePayload());
        }
        if (opcode < 0x8 && messageBytes(opcode) + length > config.maxMessagePayload()) {
            return fail(ctx, in, CloseWebSocketFrame.MESSAGE_TOO_BIG, "message of more than " + (messageBytes(opcode) + length)
                    + " bytes exceeds maxMessagePayload " + config.maxMessagePayload());
        }
        return true;
    }

    /** How many frames one message may take: 16 bytes a frame on average, 4096 whatever the limit. */
    private long maxMessageFrames() {
        return Math.max(4096, config.maxMessagePayload() / 16);
    }

    private long messageBytes(int frameOpcode) {
        return frameOpcode == 0x0 ? messageBytes : 0;
    }

    /** Checks text as it arrives; emits the frame once its payload is complete. */
    private boolean readPayload(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int available = Math.min(in.readableBytes(), payloadLength);
        if (checksUtf8() && !scanUtf8(in, available)) {
            return fail(ctx, in, CloseWebSocketFrame.INVALID_PAYLOAD, "invalid UTF-8 at byte " + scanned
                    + " of a text frame");
        }
        if (available < payloadLength) {
            return false;
        }
        inPayload = false;
        if (opcode < 0x8 && !trackMessage(ctx, in)) {
            return false;
        }
        ByteBuf payload = readUnmasked(ctx, in);
        if (opcode == 0x8) {
            return closeFrame(ctx, in, payload, out);
        }
        out.add(frame(payload)); // the payload may be in itself now: nothing touches in after this
        return true;
    }

    private boolean checksUtf8() {
        return opcode == 0x1 && (rsv & WebSocketFrame.RSV1) == 0
                || opcode == 0x0 && messageOpcode == 0x1 && !messageTransformed;
    }

    /**
     * Feeds payload bytes {@code scanned..available} to the UTF-8 check, unmasked. Between
     * characters, eight bytes at a time are unmasked with the key doubled into a long and skipped
     * when all are ASCII (top bits clear), so plain text costs a load and a test per word; any
     * other byte goes through the validator one at a time.
     */
    private boolean scanUtf8(ByteBuf in, int available) {
        int at = in.readerIndex();
        long wordMask = masked ? WebSocketMasking.wordMask(maskKey) : 0;
        while (scanned < available) {
            if (utf8.isComplete() && (scanned & 3) == 0 && available - scanned >= 8
                    && ((in.getLong(at + scanned) ^ wordMask) & 0x8080808080808080L) == 0) {
                scanned += 8; // the key repeats every 4 bytes: a word at a multiple of 4 unmasks with it
                continue;
            }
            int b = in.getByte(at + scanned);
            if (masked) {
                b ^= WebSocketMasking.maskByte(maskKey, scanned);
            }
            if (!utf8.accept(b)) {
                return false;
            }
            scanned++;
        }
        return true;
    }

    /**
     * The payload: a retained slice when it came in the clear, else unmasked into a copy that
     * starts {@link #HEADER_ROOM} bytes in, where a server's encoder can put the header of an echo.
     * A masked data frame that ends the bytes received, in a buffer this decoder may hand over
     * (nobody else can see its bytes change, such as a proxy forwarding the raw bytes) and not much
     * larger than the frame, is unmasked where it lies instead and becomes the payload itself, its
     * own header and mask key the room before it.
     */
    private ByteBuf readUnmasked(ChannelHandlerContext ctx, ByteBuf in) {
        if (!masked) {
            return in.readRetainedSlice(payloadLength);
        }
        if (opcode < 0x8 && in.readableBytes() == payloadLength
                && in.capacity() <= Math.max(MAX_PINNED_READ_BUFFER, 2 * in.writerIndex()) && handOver(in)) {
            WebSocketMasking.maskInPlace(in, in.readerIndex(), payloadLength, maskKey, 0);
            return in;
        }
        ByteBuf copy = ctx.alloc().buffer(HEADER_ROOM + payloadLength);
        copy.setIndex(HEADER_ROOM, HEADER_ROOM);
        WebSocketMasking.copyMasked(in, in.readerIndex(), payloadLength, maskKey, copy);
        in.skipBytes(payloadLength);
        return copy;
    }

    /** Message bookkeeping for a data frame; the final text frame must end on a character boundary. */
    private boolean trackMessage(ChannelHandlerContext ctx, ByteBuf in) {
        if (opcode != 0x0) {
            messageOpcode = opcode;
            messageTransformed = (rsv & WebSocketFrame.RSV1) != 0;
            messageBytes = 0;
            messageFrames = 0;
        }
        messageBytes += payloadLength;
        if (fin) {
            boolean text = messageOpcode == 0x1 && !messageTransformed;
            messageOpcode = 0;
            messageBytes = 0;
            messageFrames = 0;
            if (text && !utf8.isComplete()) {
                return fail(ctx, in, CloseWebSocketFrame.INVALID_PAYLOAD, "text message ends inside a UTF-8 sequence");
            }
        }
        return true;
    }

    /** A close frame: a sendable status and a UTF-8 reason (RFC 6455 §5.5.1, §7.4); nothing is decoded after it. */
    private boolean closeFrame(ChannelHandlerContext ctx, ByteBuf in, ByteBuf payload, List<Object> out) {
        if (payload.readableBytes() >= 2) {
            int status = payload.getUnsignedShort(payload.readerIndex());
            if (!CloseWebSocketFrame.isSendableStatus(status)) {
                payload.release();
                return fail(ctx, in, CloseWebSocketFrame.PROTOCOL_ERROR, "close status " + status + " may not be sent");
            }
            Utf8Validator reason = new Utf8Validator();
            for (int i = payload.readerIndex() + 2; i < payload.writerIndex(); i++) {
                if (!reason.accept(payload.getByte(i))) {
                    payload.release();
                    return fail(ctx, in, CloseWebSocketFrame.INVALID_PAYLOAD, "close reason is not UTF-8");
                }
            }
            if (!reason.isComplete()) {
                payload.release();
                return fail(ctx, in, CloseWebSocketFrame.INVALID_PAYLOAD, "close reason ends inside a UTF-8 sequence");
            }
        }
        out.add(new CloseWebSocketFrame(true, rsv, payload));
        done = true;
        return false;
    }

    private WebSocketFrame frame(ByteBuf payload) {
        return switch (opcode) {
            case 0x0 -> new ContinuationWebSocketFrame(fin, rsv, payload);
            case 0x1 -> new TextWebSocketFrame(fin, rsv, payload);
            case 0x2 -> new BinaryWebSocketFrame(fin, rsv, payload);
            case 0x9 -> new PingWebSocketFrame(fin, rsv, payload);
            default -> new PongWebSocketFrame(fin, rsv, payload);
        };
    }

    /**
     * Fails the connection: every later byte is ignored, and once the frames decoded before this
     * one have gone downstream, a close frame with {@code status} is written, the channel closed
     * once it is, and the exception fired. Returns false so callers can {@code return fail(...)}.
     */
    private boolean fail(ChannelHandlerContext ctx, ByteBuf in, int status, String reason) {
        done = true;
        inPayload = false;
        in.skipBytes(in.readableBytes());
        LOG.debug("WebSocket connection {} failed with {}: {}", ctx.channel(), status, reason);
        failure = new CorruptedWebSocketFrameException(status, reason);
        return false;
    }
}
