package io.rill.handler.codec.http2;

/** What a field section says about the message it heads (RFC 9113 §8.1, RFC 9110 §15). */
final class Http2Messages {

    private Http2Messages() {
    }

    /** A 204 or a 304: no content follows, whatever content-length says. */
    static boolean isBodiless(Http2Headers headers) {
        CharSequence status = headers.status();
        return status != null && ("304".contentEquals(status) || "204".contentEquals(status));
    }

    /** A CONNECT request, plain or extended (RFC 9113 §8.5, RFC 8441): what follows is a tunnel, not a body. */
    static boolean isConnect(Http2Headers headers) {
        CharSequence method = headers.method();
        return method != null && "CONNECT".contentEquals(method);
    }

    /** A 1xx head: the final one is still to come. */
    static boolean isInformational(Http2Headers headers) {
        CharSequence status = headers.status();
        return status != null && status.length() == 3 && status.charAt(0) == '1';
    }

    /** The one content-length, or -1 without one; a stream error if malformed or repeated (§8.1.1). */
    static long contentLength(int streamId, Http2Headers headers) throws Http2Exception {
        CharSequence value = headers.get("content-length");
        if (value == null) {
            return -1;
        }
        long n = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9' || n > Long.MAX_VALUE / 10 - 1) {
                throw Http2Exception.streamError(streamId, Http2Error.PROTOCOL_ERROR, "content-length '" + value
                        + "' is not a number");
            }
            n = n * 10 + (c - '0');
        }
        if (value.length() == 0 || headers.getAll("content-length").size() > 1) {
            throw Http2Exception.streamError(streamId, Http2Error.PROTOCOL_ERROR,
                    "content-length must be one number, not " + headers.getAll("content-length"));
        }
        return n;
    }
}
