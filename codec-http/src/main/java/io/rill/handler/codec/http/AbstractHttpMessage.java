package io.rill.handler.codec.http;

import io.rill.handler.codec.DecoderResult;

/** Version, headers and decoder result: what every message head has. */
abstract class AbstractHttpMessage implements HttpMessage {

    private HttpVersion version;
    private final HttpHeaders headers;
    private DecoderResult decoderResult = DecoderResult.SUCCESS;

    AbstractHttpMessage(HttpVersion version, HttpHeaders headers) {
        if (version == null || headers == null) {
            throw new NullPointerException(version == null ? "version" : "headers");
        }
        this.version = version;
        this.headers = headers;
    }

    @Override
    public HttpVersion protocolVersion() {
        return version;
    }

    @Override
    public AbstractHttpMessage setProtocolVersion(HttpVersion version) {
        if (version == null) {
            throw new NullPointerException("version");
        }
        this.version = version;
        return this;
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
