package io.rill.handler.codec.http;

/** A response head: version and status, then header fields. */
public interface HttpResponse extends HttpMessage {

    /**
     * The response status.
     *
     * @return the status
     */
    HttpResponseStatus status();

    /**
     * Replaces the status.
     *
     * @param status the new status; not null
     * @return this response
     */
    HttpResponse setStatus(HttpResponseStatus status);

    @Override
    HttpResponse setProtocolVersion(HttpVersion version);
}
