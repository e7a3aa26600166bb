package io.rill.handler.codec.http2;

/** TEMPORARY stand-in until the HPACK branch lands its checks. */
final class Http2HeaderChecks {
    private Http2HeaderChecks() {
    }

    static void validateRequest(int streamId, Http2Headers headers) throws Http2Exception {
    }

    static void validateResponse(int streamId, Http2Headers headers) throws Http2Exception {
    }

    static void validateTrailers(int streamId, Http2Headers headers) throws Http2Exception {
    }
}
