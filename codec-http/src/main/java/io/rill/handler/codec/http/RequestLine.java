package io.rill.handler.codec.http;

/**
 * The method, target and version of a request, as one immutable value: a request head then holds
 * three references instead of five, and the decoder hands the same line to every request of a
 * connection that repeats it (a keep-alive client mostly does), so such a request costs no line.
 */
record RequestLine(HttpMethod method, String uri, HttpVersion version) {

    RequestLine withMethod(HttpMethod method) {
        return new RequestLine(method, uri, version);
    }

    RequestLine withUri(String uri) {
        return new RequestLine(method, uri, version);
    }

    RequestLine withVersion(HttpVersion version) {
        return new RequestLine(method, uri, version);
    }

    /** This line if it holds exactly these objects (the decoder's parts of an unchanged line), else a new one. */
    RequestLine reuseFor(HttpMethod method, String uri, HttpVersion version) {
        return method == this.method && uri == this.uri && version == this.version ? this
                : new RequestLine(method, uri, version);
    }
}
