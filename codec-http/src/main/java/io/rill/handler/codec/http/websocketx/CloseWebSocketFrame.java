package io.rill.handler.codec.http.websocketx;

import java.nio.charset.StandardCharsets;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/**
 * A close frame (opcode 0x8, RFC 6455 §5.5.1): empty, or a two-byte status code followed by a
 * UTF-8 reason, 125 bytes at most in all. The status codes Rill sends are the constants here
 * (RFC 6455 §7.4.1).
 */
public final class CloseWebSocketFrame extends WebSocketFrame {

    /** 1000: the purpose of the connection is fulfilled. */
    public static final int NORMAL_CLOSURE = 1000;
    /** 1001: the endpoint goes away (server shutting down, page left). */
    public static final int GOING_AWAY = 1001;
    /** 1002: the peer broke the protocol. */
    public static final int PROTOCOL_ERROR = 1002;
    /** 1003: a kind of data the endpoint cannot accept. */
    public static final int UNSUPPORTED_DATA = 1003;
    /** 1005: no status in the close frame; never sent, only reported. */
    public static final int NO_STATUS = 1005;
    /** 1007: a text message or close reason that is not UTF-8. */
    public static final int INVALID_PAYLOAD = 1007;
    /** 1008: a message that violates the endpoint's policy. */
    public static final int POLICY_VIOLATION = 1008;
    /** 1009: a frame or message larger than the endpoint accepts. */
    public static final int MESSAGE_TOO_BIG = 1009;
    /** 1011: the server met an unexpected condition. */
    public static final int INTERNAL_ERROR = 1011;

    /** A close frame without a status. */
    public CloseWebSocketFrame() {
        this(true, 0, Unpooled.EMPTY_BUFFER);
    }

    /**
     * A close frame with a status and a reason.
     *
     * @param status a code valid on the wire, see {@link #isSendableStatus(int)}
     * @param reason the reason, at most 123 bytes in UTF-8; null or empty for none
     * @throws IllegalArgumentException if the status cannot be sent or the reason is too long
     */
    public CloseWebSocketFrame(int status, String reason) {
        this(true, 0, payload(status, reason));
    }

    /**
     * A close frame around a raw payload, as the decoder makes it.
     *
     * @param finalFragment the FIN bit (a close frame is always final on the wire)
     * @param rsv the RSV bits
     * @param content the payload; owned by this frame from now on
     */
    public CloseWebSocketFrame(boolean finalFragment, int rsv, ByteBuf content) {
        super(finalFragment, rsv, content);
    }

    private static ByteBuf payload(int status, String reason) {
        if (!isSendableStatus(status)) {
            throw new IllegalArgumentException("close status " + status + " cannot be sent (RFC 6455 §7.4)");
        }
        byte[] text = reason == null ? new byte[0] : reason.getBytes(StandardCharsets.UTF_8);
        if (text.length > 123) {
            throw new IllegalArgumentException("close reason of " + text.length + " bytes (at most 123)");
        }
        ByteBuf buf = Unpooled.buffer(2 + text.length);
        buf.writeShort(status);
        buf.writeBytes(text);
        return buf;
    }

    /**
     * Whether {@code status} may appear in a close frame: 1000-1003, 1007-1014 (defined by RFC
     * 6455 and the IANA registry) and 3000-4999 (libraries and applications). 1004-1006 and 1015
     * are reserved or only reported locally, everything else unassigned (RFC 6455 §7.4).
     *
     * @param status a status code
     * @return whether an endpoint may send it
     */
    public static boolean isSendableStatus(int status) {
        return status >= 1000 && status <= 1003
                || status >= 1007 && status <= 1014
                || status >= 3000 && status <= 4999;
    }

    /** @return the status code, or {@link #NO_STATUS} when the payload is empty */
    public int statusCode() {
        ByteBuf content = content();
        return content.readableBytes() >= 2 ? content.getUnsignedShort(content.readerIndex()) : NO_STATUS;
    }

    /** @return the reason after the status code, empty when there is none */
    public String reasonText() {
        ByteBuf content = content();
        if (content.readableBytes() <= 2) {
            return "";
        }
        return content.toString(content.readerIndex() + 2, content.readableBytes() - 2, StandardCharsets.UTF_8);
    }

    @Override
    public int opcode() {
        return 0x8;
    }

    @Override
    public CloseWebSocketFrame replace(ByteBuf content) {
        return new CloseWebSocketFrame(isFinalFragment(), rsv(), content);
    }
}
