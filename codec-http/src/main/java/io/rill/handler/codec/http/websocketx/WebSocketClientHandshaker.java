package io.rill.handler.codec.http.websocketx;

import java.net.URI;
import java.util.List;
import java.util.Locale;

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
import io.rill.handler.codec.http2.Http2Headers;

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

    /** @return the upgrade request, with a new key; the caller owns it */
    public FullHttpRequest newRequest() {
        key = HandshakeFields.newKey();
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, target(),
                Unpooled.EMPTY_BUFFER);
        HttpHeaders fields = request.headers();
        int port = uri.getPort();
        boolean defaultPort = port == -1 || port == ("wss".equalsIgnoreCase(uri.getScheme()) ? 443 : 80);
        fields.set(HttpHeaderNames.HOST, defaultPort ? uri.getHost() : uri.getHost() + ":" + port)
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
     * The subprotocol and extensions a successful answer names; shared by HTTP/1.1 and RFC 8441.
     *
     * @throws WebSocketHandshakeException if the server chose what was not offered
     */
    Agreement agreement(HttpHeaders fields) {
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

    /**
     * The fields of an RFC 8441 extended CONNECT for this URI: {@code :method CONNECT},
     * {@code :protocol websocket}, {@code :scheme} {@code https} for {@code wss:} ({@code http}
     * otherwise), {@code :authority}, {@code :path}, {@code sec-websocket-version: 13} and the offers;
     * no key (RFC 8441 §5). Field names are lower case, as HTTP/2 requires.
     */
    Http2Headers newExtendedConnect() {
        boolean secure = "wss".equalsIgnoreCase(uri.getScheme());
        int port = uri.getPort();
        boolean defaultPort = port == -1 || port == (secure ? 443 : 80);
        Http2Headers fields = new Http2Headers()
                .method("CONNECT").set(Http2Headers.PROTOCOL, "websocket")
                .scheme(secure ? "https" : "http")
                .authority(defaultPort ? uri.getHost() : uri.getHost() + ":" + port)
                .path(target())
                .set("sec-websocket-version", "13");
        if (!subprotocols.isEmpty()) {
            fields.set("sec-websocket-protocol", String.join(", ", subprotocols));
        }
        if (extensionOffer != null) {
            fields.set("sec-websocket-extensions", extensionOffer);
        }
        if (extraHeaders != null) {
            extraHeaders.forEach((name, value) -> fields.add(name.toString().toLowerCase(Locale.ROOT), value));
        }
        return fields;
    }

    /** The request target: the URI's path, {@code /} if empty, and its query. */
    private String target() {
        String target = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return uri.getRawQuery() == null ? target : target + "?" + uri.getRawQuery();
    }
}
