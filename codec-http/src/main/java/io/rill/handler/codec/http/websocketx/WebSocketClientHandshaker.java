package io.rill.handler.codec.http.websocketx;

import java.net.URI;
import java.util.List;

import io.rill.buffer.Unpooled;
import io.rill.handler.codec.http.DefaultFullHttpRequest;
import io.rill.handler.codec.http.FullHttpRequest;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaderValues;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpResponse;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpVersion;

/**
 * The client's side of the version-13 opening handshake (RFC 6455 §4.1): makes the upgrade
 * request with a fresh random key and checks the server's answer. The answer is accepted only if
 * it is {@code 101} with {@code Upgrade: websocket}, {@code Connection: upgrade}, the
 * {@code Sec-WebSocket-Accept} that matches the key, a subprotocol the client offered (or none),
 * and only extensions the negotiator takes. One handshake per instance; not thread-safe.
 */
public final class WebSocketClientHandshaker {

    private final URI uri;
    private final List<String> subprotocols;
    private final HttpHeaders extraHeaders;
    private final String extensionOffer;
    private final WebSocketExtensionNegotiator extensions;
    /** The key of the request made; null before {@link #newRequest()}. */
    private String key;

    /**
     * @param uri a {@code ws:} or {@code wss:} URI; its path and query become the request target
     * @param subprotocols the subprotocols to offer, in order of preference; empty for none
     * @param extraHeaders fields added to the request ({@code Origin}, cookies ...)
     * @param extensionOffer the {@code Sec-WebSocket-Extensions} offer, null for none
     * @param extensions reads the server's extension answer
     */
    public WebSocketClientHandshaker(URI uri, List<String> subprotocols, HttpHeaders extraHeaders,
            String extensionOffer, WebSocketExtensionNegotiator extensions) {
        String scheme = uri.getScheme();
        if (!"ws".equalsIgnoreCase(scheme) && !"wss".equalsIgnoreCase(scheme)) {
            throw new IllegalArgumentException("not a ws: or wss: URI: " + uri);
        }
        this.uri = uri;
        this.subprotocols = List.copyOf(subprotocols);
        this.extraHeaders = extraHeaders;
        this.extensionOffer = extensionOffer;
        this.extensions = extensions;
    }

    /** @return the URI this handshake opens */
    public URI uri() {
        return uri;
    }

    /**
     * The request target: the URI's path, {@code /} if it has none, and its query.
     *
     * @return the target of the request ({@code :path} over HTTP/2)
     */
    public String requestTarget() {
        String target = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return uri.getRawQuery() == null ? target : target + "?" + uri.getRawQuery();
    }

    /**
     * The URI's host, with its port unless that is the scheme's default (80 for {@code ws:}, 443
     * for {@code wss:}).
     *
     * @return the request's {@code Host} ({@code :authority} over HTTP/2)
     */
    public String authority() {
        int port = uri.getPort();
        boolean defaultPort = port == -1 || port == ("wss".equalsIgnoreCase(uri.getScheme()) ? 443 : 80);
        return defaultPort ? uri.getHost() : uri.getHost() + ":" + port;
    }

    /** @return the subprotocols offered, in order of preference; empty for none */
    public List<String> subprotocols() {
        return subprotocols;
    }

    /** @return the {@code Sec-WebSocket-Extensions} offer, null for none */
    public String extensionOffer() {
        return extensionOffer;
    }

    /** @return the fields added to every request ({@code Origin}, cookies ...), as given; null for none */
    public HttpHeaders extraHeaders() {
        return extraHeaders;
    }

    /** @return the upgrade request, with a new key; the caller owns it */
    public FullHttpRequest newRequest() {
        key = HandshakeFields.newKey();
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, requestTarget(),
                Unpooled.EMPTY_BUFFER);
        HttpHeaders fields = request.headers();
        fields.set(HttpHeaderNames.HOST, authority())
                .set(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE)
                .set(HttpHeaderNames.SEC_WEBSOCKET_KEY, key)
                .set(HttpHeaderNames.SEC_WEBSOCKET_VERSION, "13");
        if (!subprotocols.isEmpty()) {
            fields.set(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL, String.join(", ", subprotocols));
        }
        if (extensionOffer != null) {
            fields.set(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS, extensionOffer);
        }
        if (extraHeaders != null) {
            fields.add(extraHeaders);
        }
        return request;
    }

    /**
     * What the server's answer agreed.
     *
     * @param subprotocol the subprotocol the server chose, null for none
     * @param extensions the extensions in effect, in order
     */
    public record Agreement(String subprotocol, List<WebSocketExtension> extensions) {
    }

    /**
     * Checks the server's answer to the request {@link #newRequest()} made.
     *
     * @param response the answer; not released
     * @return what it agreed
     * @throws WebSocketHandshakeException if the answer does not complete the handshake
     */
    public Agreement check(HttpResponse response) {
        if (key == null) {
            throw new IllegalStateException("no request was made");
        }
        HttpHeaders fields = response.headers();
        if (response.status().code() != HttpResponseStatus.SWITCHING_PROTOCOLS.code()) {
            throw new WebSocketHandshakeException("the server answered " + response.status() + ", not 101");
        }
        if (!fields.containsValue(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET, true)
                || !fields.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE, true)) {
            throw new WebSocketHandshakeException("101 without Upgrade: websocket and Connection: upgrade");
        }
        String accept = fields.get(HttpHeaderNames.SEC_WEBSOCKET_ACCEPT);
        String expected = HandshakeFields.acceptFor(key);
        if (accept == null || !expected.equals(accept.trim())) {
            throw new WebSocketHandshakeException("Sec-WebSocket-Accept " + accept + " (expected " + expected + ")");
        }
        return agreement(fields);
    }

    /**
     * Checks the fields of the server's {@code :status 200} answer to an RFC 8441 extended CONNECT
     * made of this handshaker's offers (the caller checked the status). HTTP/2 carries no key and
     * no {@code Sec-WebSocket-Accept} (RFC 8441 §5), so what is left to check is the subprotocol
     * and the extensions the server chose, as for HTTP/1.1.
     *
     * @param fields the answer's regular fields (no pseudo-header fields)
     * @return what it agreed
     * @throws WebSocketHandshakeException if the server chose what was not offered
     */
    public Agreement checkExtendedConnect(HttpHeaders fields) {
        return agreement(fields);
    }

    /** The subprotocol and extensions a successful answer names, over either HTTP version. */
    private Agreement agreement(HttpHeaders fields) {
        List<String> chosen = HandshakeFields.elements(fields, HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL);
        if (chosen.size() > 1 || chosen.size() == 1 && !subprotocols.contains(chosen.get(0))) {
            throw new WebSocketHandshakeException("the server chose subprotocol " + chosen + ", offered " + subprotocols);
        }
        List<String> elements = HandshakeFields.elements(fields, HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS);
        List<WebSocketExtension> accepted = List.copyOf(extensions.negotiate(elements));
        if (accepted.size() != elements.size()) {
            throw new WebSocketHandshakeException("the server accepted extensions that were not offered: " + elements);
        }
        return new Agreement(chosen.isEmpty() ? null : chosen.get(0), accepted);
    }
}
