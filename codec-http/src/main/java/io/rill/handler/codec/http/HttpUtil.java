package io.rill.handler.codec.http;

import io.rill.util.AsciiString;

/** Common questions about messages: keep-alive, content length, chunked coding, expectations. */
public final class HttpUtil {

    private HttpUtil() {
    }

    /**
     * Whether the connection stays open after this message: {@code Connection: close} ends it,
     * HTTP/1.0 ends it unless {@code Connection: keep-alive} (RFC 9112 §9.3).
     *
     * @param message a request or response
     * @return true if the connection stays open after it
     */
    public static boolean isKeepAlive(HttpMessage message) {
        HttpHeaders h = message.headers();
        if (h.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE, true)) {
            return false;
        }
        return message.protocolVersion().isKeepAliveDefault()
                || h.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE, true);
    }

    /**
     * Sets {@code Connection} so that {@link #isKeepAlive} answers {@code keepAlive}.
     *
     * @param message   the message to change; its headers must be writable
     * @param keepAlive whether the connection should stay open after the message
     */
    public static void setKeepAlive(HttpMessage message, boolean keepAlive) {
        HttpHeaders h = message.headers();
        if (keepAlive) {
            if (message.protocolVersion().isKeepAliveDefault()) {
                h.remove(HttpHeaderNames.CONNECTION);
            } else {
                h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            }
        } else {
            h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
    }

    /**
     * The {@code Content-Length}, or {@code defaultValue} if absent or not a plain decimal number.
     *
     * @param message      a request or response
     * @param defaultValue what to return without a usable length
     * @return the length, or {@code defaultValue}
     */
    public static long getContentLength(HttpMessage message, long defaultValue) {
        return message.headers().getLong(HttpHeaderNames.CONTENT_LENGTH, defaultValue);
    }

    /**
     * Whether the message has a {@code Content-Length} field, valid or not.
     *
     * @param message a request or response
     * @return true if the field is present
     */
    public static boolean isContentLengthSet(HttpMessage message) {
        return message.headers().contains(HttpHeaderNames.CONTENT_LENGTH);
    }

    /**
     * Sets {@code Content-Length}, replacing any earlier value.
     *
     * @param message the message to change; its headers must be writable
     * @param length  the body's length in bytes
     */
    public static void setContentLength(HttpMessage message, long length) {
        message.headers().set(HttpHeaderNames.CONTENT_LENGTH, Long.toString(length));
    }

    /**
     * Whether the body is framed by the chunked coding: the final coding {@code Transfer-Encoding}
     * lists, over all its fields, is {@code chunked} (RFC 9112 §6.3). A {@code chunked} listed
     * earlier does not count: such a response runs to the end of the connection, which is how
     * the decoders read it, so an encoder that chunked it would say something else than it meant.
     *
     * @param message a request or response
     * @return true if the body is chunked
     */
    public static boolean isTransferEncodingChunked(HttpMessage message) {
        // Every response passes here on its way out: walk the fields in place, no list, no split.
        HttpHeaders h = message.headers();
        int last = -1;
        for (int i = 0; i < h.size(); i++) {
            if (AsciiString.contentEqualsIgnoreCase(h.nameAt(i), HttpHeaderNames.TRANSFER_ENCODING)) {
                int coding = lastCoding(h.valueAt(i));
                last = coding >= 0 ? coding : last; // a field of empty elements names no coding
            }
        }
        return last == 1;
    }

    /**
     * The last non-empty element of a comma-separated list (RFC 9110 §5.6.1): 1 if it is
     * {@code chunked}, 0 if it is another coding, -1 if the list has no element.
     */
    private static int lastCoding(CharSequence value) {
        int end = value.length();
        while (end > 0 && isListSeparator(value.charAt(end - 1))) {
            end--;
        }
        if (end == 0) {
            return -1;
        }
        int start = end;
        while (start > 0 && value.charAt(start - 1) != ',') {
            start--;
        }
        while (value.charAt(start) == ' ' || value.charAt(start) == '\t') {
            start++;
        }
        String chunked = "chunked";
        if (end - start != chunked.length()) {
            return 0;
        }
        for (int i = 0; i < chunked.length(); i++) {
            if ((value.charAt(start + i) | 0x20) != chunked.charAt(i)) {
                return 0;
            }
        }
        return 1;
    }

    private static boolean isListSeparator(char c) {
        return c == ',' || c == ' ' || c == '\t';
    }

    /**
     * Sets or removes {@code Transfer-Encoding: chunked}; setting it removes {@code Content-Length}.
     *
     * @param message the message to change; its headers must be writable
     * @param chunked true to set the field, false to remove it
     */
    public static void setTransferEncodingChunked(HttpMessage message, boolean chunked) {
        if (chunked) {
            message.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            message.headers().remove(HttpHeaderNames.CONTENT_LENGTH);
        } else {
            message.headers().remove(HttpHeaderNames.TRANSFER_ENCODING);
        }
    }

    /**
     * Whether an HTTP/1.1 request says {@code Expect: 100-continue}.
     *
     * @param message a request or response
     * @return true for a request that waits for 100 Continue before sending its body
     */
    public static boolean is100ContinueExpected(HttpMessage message) {
        return message instanceof HttpRequest && message.protocolVersion().compareTo(HttpVersion.HTTP_1_1) >= 0
                && message.headers().contains(HttpHeaderNames.EXPECT, HttpHeaderValues.CONTINUE, true);
    }
}
