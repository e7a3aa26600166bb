package io.rill.handler.codec.http;

/** A response head: version and status, then header fields. */
public interface HttpResponse extends HttpMessage {

    HttpResponseStatus status();

    HttpResponse setStatus(HttpResponseStatus status);

    @Override
    HttpResponse setProtocolVersion(HttpVersion version);
}
