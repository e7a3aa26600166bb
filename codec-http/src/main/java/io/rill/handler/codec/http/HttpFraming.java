package io.rill.handler.codec.http;

import io.rill.handler.codec.http.HttpObjectDecoder.BodyFraming;
import io.rill.util.AsciiString;

/**
 * How a message's body is delimited (RFC 9112 §6.3), with every ambiguity that lets two parsers
 * disagree treated as an error: both {@code Transfer-Encoding} and {@code Content-Length},
 * {@code Transfer-Encoding} in HTTP/1.0, {@code Content-Length} repeated, listed or not plain
 * digits, {@code chunked} repeated or (in a request) not last.
 */
final class HttpFraming {

    private HttpFraming() {
    }

    /**
     * The framing of a message that may have a body: chunked, fixed length, or {@code otherwise}
     * when neither field is present. A response whose transfer codings do not end in chunked runs
     * to the end of the connection.
     */
    static BodyFraming of(HttpMessage message, boolean request, BodyFraming otherwise) {
        HttpHeaders h = message.headers();
        if (h.contains(HttpHeaderNames.TRANSFER_ENCODING)) {
            return transferEncoding(message, request);
        }
        return contentLength(message) >= 0 ? BodyFraming.FIXED_LENGTH : otherwise;
    }

    private static BodyFraming transferEncoding(HttpMessage message, boolean request) {
        HttpHeaders h = message.headers();
        if (message.protocolVersion().minorVersion() == 0) {
            // RFC 9112 §6.1: Transfer-Encoding in HTTP/1.0 means the framing is faulty (CVE-2026-42581).
            throw reject("Transfer-Encoding in an HTTP/1.0 message", message);
        }
        if (h.contains(HttpHeaderNames.CONTENT_LENGTH)) {
            throw reject("both Transfer-Encoding and Content-Length", message);
        }
        int codings = 0;
        boolean chunkedSeen = false;
        boolean lastIsChunked = false;
        for (String value : h.getAll(HttpHeaderNames.TRANSFER_ENCODING)) {
            for (String element : value.split(",", -1)) {
                String coding = element.strip();
                if (coding.isEmpty()) {
                    continue; // empty list elements are allowed (RFC 9110 §5.6.1)
                }
                lastIsChunked = coding.equalsIgnoreCase("chunked");
                if (lastIsChunked && chunkedSeen) {
                    throw reject("chunked applied twice", message);
                }
                chunkedSeen |= lastIsChunked;
                codings++;
            }
        }
        if (!lastIsChunked) {
            if (request) {
                throw reject("Transfer-Encoding whose final coding is not chunked", message);
            }
            return BodyFraming.UNTIL_CLOSE;
        }
        if (codings > 1) {
            throw new HttpDecoderException(HttpResponseStatus.NOT_IMPLEMENTED, "transfer codings other than chunked"
                    + " are not supported: " + h.getAll(HttpHeaderNames.TRANSFER_ENCODING) + " in " + firstLine(message));
        }
        return BodyFraming.CHUNKED;
    }

    /** The single, plain-decimal {@code Content-Length}, or -1 if there is none. */
    static long contentLength(HttpMessage message) {
        HttpHeaders h = message.headers();
        long length = -1;
        for (int i = 0; i < h.size(); i++) {
            if (!AsciiString.contentEqualsIgnoreCase(h.nameAt(i), HttpHeaderNames.CONTENT_LENGTH)) {
                continue;
            }
            if (length >= 0) {
                throw reject("Content-Length given more than once", message);
            }
            length = HttpHeaders.parseDecimal(h.valueAt(i));
            if (length < 0) {
                throw reject("Content-Length \"" + HttpHeaderValidation.printable(h.valueAt(i))
                        + "\" is not a decimal number below 10^18", message);
            }
        }
        return length;
    }

    static HttpDecoderException reject(String why, HttpMessage message) {
        return new HttpDecoderException(HttpResponseStatus.BAD_REQUEST, why + " in " + firstLine(message));
    }

    private static String firstLine(HttpMessage m) {
        return m instanceof HttpRequest r ? r.method() + " " + HttpHeaderValidation.printable(r.uri()) + " " + r.protocolVersion()
                : m.protocolVersion() + " " + ((HttpResponse) m).status();
    }
}
