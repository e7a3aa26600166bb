package io.rill.handler.codec.http;

import io.rill.handler.codec.DecoderResult;

/**
 * Headers and decoder result: what every message head has. The version is kept by each kind of
 * head, a request keeping it in its {@link RequestLine}.
 */
abstract class AbstractHttpMessage implements HttpMessage {

    private final HttpHeaders headers;
    private DecoderResult decoderResult = DecoderResult.SUCCESS;

    AbstractHttpMessage(HttpHeaders headers) {
        if (headers == null) {
            throw new NullPointerException("headers");
        }
        this.headers = headers;
    }

    static HttpVersion checkVersion(HttpVersion version) {
        if (version == null) {
            throw new NullPointerException("version");
        }
        return version;
    }

    @Override
    public HttpHeaders headers() {
        return headers;
    }

    @Override
    public DecoderResult decoderResult() {
        return decoderResult;
    }

    @Override
    public void setDecoderResult(DecoderResult result) {
        if (result == null) {
            throw new NullPointerException("result");
        }
        this.decoderResult = result;
    }

    /** Appends the header fields, one per line, for toString. */
    final StringBuilder appendHeaders(StringBuilder sb, HttpHeaders fields) {
        for (int i = 0; i < fields.size(); i++) {
            sb.append('\n').append(fields.nameAt(i)).append(": ").append(fields.valueAt(i));
        }
        return sb;
    }
}
