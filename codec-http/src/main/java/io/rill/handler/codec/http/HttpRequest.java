package io.rill.handler.codec.http;

/** A request head: method, request target and version, then header fields. */
public interface HttpRequest extends HttpMessage {

    HttpMethod method();

    HttpRequest setMethod(HttpMethod method);

    /** The request target as sent: origin form ({@code /path?query}) or absolute, authority or {@code *}. */
    String uri();

    HttpRequest setUri(String uri);

    @Override
    HttpRequest setProtocolVersion(HttpVersion version);
}
