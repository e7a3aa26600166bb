package io.rill.handler.codec.http.websocketx;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import io.rill.buffer.Unpooled;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaderValues;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpVersion;

/**
 * The server's side of the version-13 opening handshake (RFC 6455 §4.2): checks an upgrade
 * request and answers it, without touching a channel. A request is refused, with no upgrade, when
 *
 * <ul>
 *   <li>it is not {@code GET} over HTTP/1.1, has no {@code Host}, or lacks {@code Upgrade: websocket}
 *       or {@code Connection: upgrade}: {@code 400};
 *   <li>{@code Sec-WebSocket-Version} is not exactly {@code 13}: {@code 426} with
 *       {@code Sec-WebSocket-Version: 13} (§4.4);
 *   <li>{@code Sec-WebSocket-Key} is missing, repeated or not base64 of 16 bytes: {@code 400};
 *   <li>the origin check returns false for its {@code Origin} (null when absent): {@code 403}.
 * </ul>
 *
 * <p>Otherwise the answer is {@code 101} with the accept hash, the first subprotocol the client
 * offers that the server supports (none if there is no match: the client decides whether to go on,
 * §4.2.2), and the extensions the negotiator accepted. Stateless and thread-safe.
 */
public final class WebSocketServerHandshaker {

    private final List<String> subprotocols;
    private final Predicate<String> originCheck;
    private final WebSocketExtensionNegotiator extensions;

    /**
     * @param subprotocols the subprotocols the server speaks, by name; empty for none
     * @param originCheck true to accept a request with this {@code Origin} (null if absent)
     * @param extensions picks the extensions to accept among the client's offers
     */
    public WebSocketServerHandshaker(List<String> subprotocols, Predicate<String> originCheck,
            WebSocketExtensionNegotiator extensions) {
        this.subprotocols = List.copyOf(subprotocols);
        this.originCheck = originCheck;
        this.extensions = extensions;
    }

    /**
     * The outcome of one handshake.
     *
     * @param response the response to send: {@code 101}, or the refusal; the caller owns it
     * @param accepted whether the connection switches to WebSocket once it is sent
     * @param subprotocol the chosen subprotocol, null for none
     * @param extensions the accepted extensions, in order
     * @param reason why the request was refused, null when accepted
     */
    public record Outcome(FullHttpResponse response, boolean accepted, String subprotocol,
            List<WebSocketExtension> extensions, String reason) {
    }

    /**
     * Checks {@code request} and makes the answer.
     *
     * @param request the upgrade request; not released
     * @return the outcome
     */
    public Outcome handshake(HttpRequest request) {
        HttpHeaders fields = request.headers();
        if (!HttpMethod.GET.equals(request.method()) || !HttpVersion.HTTP_1_1.equals(request.protocolVersion())) {
            return refuse(HttpResponseStatus.BAD_REQUEST, "a WebSocket upgrade is a GET over HTTP/1.1");
        }
        if (!fields.containsValue(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET, true)
                || !fields.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE, true)) {
            return refuse(HttpResponseStatus.BAD_REQUEST, "missing Upgrade: websocket or Connection: upgrade");
        }
        if (!fields.contains(HttpHeaderNames.HOST)) {
            return refuse(HttpResponseStatus.BAD_REQUEST, "missing Host");
        }
        List<String> versions = fields.getAll(HttpHeaderNames.SEC_WEBSOCKET_VERSION);
        if (versions.size() != 1 || !"13".equals(versions.get(0).trim())) {
            Outcome outcome = refuse(HttpResponseStatus.UPGRADE_REQUIRED, "unsupported Sec-WebSocket-Version " + versions);
            outcome.response().headers().set(HttpHeaderNames.SEC_WEBSOCKET_VERSION, "13");
            return outcome;
        }
        List<String> keys = fields.getAll(HttpHeaderNames.SEC_WEBSOCKET_KEY);
        if (keys.size() != 1 || !HandshakeFields.isValidKey(keys.get(0).trim())) {
            return refuse(HttpResponseStatus.BAD_REQUEST, "Sec-WebSocket-Key " + keys + " is not base64 of 16 bytes");
        }
        String origin = fields.get(HttpHeaderNames.ORIGIN);
        if (!originCheck.test(origin)) {
            return refuse(HttpResponseStatus.FORBIDDEN, "origin " + origin + " refused");
        }
        return accept(fields, keys.get(0).trim());
    }

    /**
     * Checks the fields of an RFC 8441 extended CONNECT ({@code :method CONNECT}, {@code :protocol
     * websocket}, which the caller checked) and makes the answer. HTTP/2 has no
     * {@code Sec-WebSocket-Key}/{@code Accept} and no {@code Upgrade} (§5), so the rules left are
     * these: {@code sec-websocket-version} must be exactly {@code 13}, else {@code 400} with
     * {@code sec-websocket-version: 13}; the origin check as for HTTP/1.1 ({@code 403}); then
     * {@code 200} with the subprotocol and the extensions chosen exactly as for HTTP/1.1.
     *
     * @param fields the request's regular fields (no pseudo-header fields)
     * @return the outcome; its response's status and fields are what to send as HTTP/2 HEADERS,
     *         without the HTTP/1.1-only {@code connection} field
     */
    public Outcome handshakeExtendedConnect(HttpHeaders fields) {
        List<String> versions = fields.getAll(HttpHeaderNames.SEC_WEBSOCKET_VERSION);
        if (versions.size() != 1 || !"13".equals(versions.get(0).trim())) {
            Outcome outcome = refuse(HttpResponseStatus.BAD_REQUEST, "unsupported sec-websocket-version " + versions);
            outcome.response().headers().set(HttpHeaderNames.SEC_WEBSOCKET_VERSION, "13");
            return outcome;
        }
        String origin = fields.get(HttpHeaderNames.ORIGIN);
        if (!originCheck.test(origin)) {
            return refuse(HttpResponseStatus.FORBIDDEN, "origin " + origin + " refused");
        }
        return agree(fields, new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.EMPTY_BUFFER));
    }

    private Outcome accept(HttpHeaders fields, String key) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.SWITCHING_PROTOCOLS, Unpooled.EMPTY_BUFFER);
        response.headers().set(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE)
                .set(HttpHeaderNames.SEC_WEBSOCKET_ACCEPT, HandshakeFields.acceptFor(key));
        return agree(fields, response);
    }

    /** Chooses the subprotocol and the extensions, names them in {@code response} and accepts: both HTTP versions. */
    private Outcome agree(HttpHeaders fields, FullHttpResponse response) {
        String subprotocol = null;
        for (String offered : HandshakeFields.elements(fields, HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL)) {
            if (subprotocols.contains(offered)) {
                subprotocol = offered;
                break;
            }
        }
        List<WebSocketExtension> accepted =
                List.copyOf(extensions.negotiate(HandshakeFields.elements(fields, HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS)));
        if (subprotocol != null) {
            response.headers().set(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL, subprotocol);
        }
        if (!accepted.isEmpty()) {
            List<String> elements = new ArrayList<>();
            for (WebSocketExtension e : accepted) {
                elements.add(e.responseElement());
            }
            response.headers().set(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS, String.join(", ", elements));
        }
        return new Outcome(response, true, subprotocol, accepted, null);
    }

    /**
     * A refusal for a reason the caller found, such as a rule of the transport the handshake runs
     * on (RFC 8441: the extended CONNECT must not end its stream): {@code status} with a
     * {@code text/plain} body that gives the reason, and {@code Connection: close}.
     *
     * @param status the status to answer with
     * @param reason why, for the body and the log
     * @return an outcome that is not accepted; the caller owns its response
     */
    public static Outcome refuse(HttpResponseStatus status, String reason) {
        byte[] body = (status.reasonPhrase() + ": " + reason + "\n").getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        return new Outcome(response, false, null, List.of(), reason);
    }
}
