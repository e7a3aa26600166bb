package io.rill.handler.codec.http.cors;

import java.util.Locale;
import java.util.stream.Collectors;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.http.DefaultFullHttpResponse;
import io.rill.handler.codec.http.FullHttpResponse;
import io.rill.handler.codec.http.HttpContent;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaders;
import io.rill.handler.codec.http.HttpMethod;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponse;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.handler.codec.http.HttpUtil;
import io.rill.handler.codec.http.LastHttpContent;
import io.rill.handler.codec.http.internal.PendingRequests;
import io.rill.handler.codec.http.internal.Vary;
import io.rill.util.concurrent.Promise;

/**
 * Cross-origin resource sharing for a server, after its {@code HttpServerCodec}. Answers
 * preflight requests ({@code OPTIONS} with {@code Origin} and {@code Access-Control-Request-Method})
 * itself, from its {@link CorsConfig}, and adds {@code Access-Control-Allow-Origin} (and the
 * credentials and exposed-headers fields) to the responses of allowed cross-origin requests.
 *
 * <p>Whenever the answer depends on the origin, {@code Origin} is <em>added</em> to whatever
 * {@code Vary} the application set (docs/security-cases.md, case H1-19: replacing
 * {@code Vary: Cookie} let a cache serve one user's response to another).
 *
 * <p>The origins of requests awaiting their responses wait in a ring of
 * {@value #MAX_PENDING} entries ({@link PendingRequests}); requests pipelined beyond it get responses without CORS
 * headers (a browser then blocks them: safe), and no state grows per request (H1-17).
 */
public class CorsHandler implements ChannelHandler {

    static final int MAX_PENDING = 128;

    private final CorsConfig config;
    /** Origins (null: not a CORS request or not allowed) of requests awaiting responses. */
    private final PendingRequests<String> pending = new PendingRequests<>(MAX_PENDING);
    /** True while the body of a request this handler answered is dropped. */
    private boolean dropping;

    /**
     * Applies {@code config} to every request of the channel.
     *
     * @param config the policy; immutable, so one may serve every channel
     * @throws NullPointerException if {@code config} is null
     */
    public CorsHandler(CorsConfig config) {
        if (config == null) {
            throw new NullPointerException("config");
        }
        this.config = config;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest request) {
            dropping = false;
            String origin = request.headers().get(HttpHeaderNames.ORIGIN);
            if (origin != null && isPreflight(request)) {
                answer(ctx, request, preflight(request, origin));
                return;
            }
            boolean allowed = origin != null && config.isOriginAllowed(origin);
            if (origin != null && !allowed && config.isShortCircuit()) {
                FullHttpResponse forbidden = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.FORBIDDEN);
                Vary.append(forbidden.headers(), "Origin");
                answer(ctx, request, forbidden);
                return;
            }
            pending.add(allowed ? origin : null);
        } else if (dropping && msg instanceof HttpContent content) {
            dropping = !(content instanceof LastHttpContent);
            content.release();
            return;
        }
        ctx.fireChannelRead(msg);
    }

    private static boolean isPreflight(HttpRequest request) {
        return request.method().equals(HttpMethod.OPTIONS)
                && request.headers().contains(HttpHeaderNames.ACCESS_CONTROL_REQUEST_METHOD);
    }

    /** The answer to a preflight: 200 with the grants, or 403 if the origin, method or a header is not allowed. */
    private FullHttpResponse preflight(HttpRequest request, String origin) {
        HttpHeaders h = request.headers();
        String method = h.get(HttpHeaderNames.ACCESS_CONTROL_REQUEST_METHOD).trim();
        String asked = h.get(HttpHeaderNames.ACCESS_CONTROL_REQUEST_HEADERS, "");
        boolean methodOk = config.allowedRequestMethods().stream().anyMatch(m -> m.name().equals(method));
        boolean headersOk = true;
        for (String name : asked.split(",")) {
            String n = name.trim().toLowerCase(Locale.ROOT);
            headersOk &= n.isEmpty() || config.allowedRequestHeaders().contains(n);
        }
        boolean ok = config.isOriginAllowed(origin) && methodOk && headersOk;
        FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(),
                ok ? HttpResponseStatus.OK : HttpResponseStatus.FORBIDDEN);
        HttpHeaders out = response.headers();
        if (ok) {
            allowOrigin(out, origin);
            out.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_METHODS,
                    config.allowedRequestMethods().stream().map(HttpMethod::name).collect(Collectors.joining(", ")));
            if (!config.allowedRequestHeaders().isEmpty()) {
                out.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, String.join(", ", config.allowedRequestHeaders()));
            }
            if (config.maxAge() > 0) {
                out.set(HttpHeaderNames.ACCESS_CONTROL_MAX_AGE, Long.toString(config.maxAge()));
            }
        }
        Vary.append(out, "Origin");
        return response;
    }

    /** Sends {@code response} for {@code request} instead of the application, dropping the request's body. */
    private void answer(ChannelHandlerContext ctx, HttpRequest request, FullHttpResponse response) {
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        dropping = !(request instanceof LastHttpContent);
        ReferenceCountUtil.release(request);
        response.headers().set(HttpHeaderNames.CONTENT_LENGTH, "0");
        HttpUtil.setKeepAlive(response, keepAlive);
        if (keepAlive) {
            ctx.writeAndFlush(response);
        } else {
            ctx.writeAndFlush(response).addListener(f -> ctx.close());
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
        if (msg instanceof HttpResponse response && !response.status().isInformational()) {
            String origin = pending.poll();
            if (origin != null) {
                HttpHeaders h = response.headers();
                allowOrigin(h, origin);
                if (!config.exposedHeaders().isEmpty()) {
                    h.set(HttpHeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS, String.join(", ", config.exposedHeaders()));
                }
                Vary.append(h, "Origin");
            }
        }
        ctx.write(msg, promise);
    }

    /** {@code *} for any origin without credentials; the origin itself otherwise (the Fetch standard forbids {@code *} with credentials). */
    private void allowOrigin(HttpHeaders h, String origin) {
        boolean star = config.isAnyOrigin() && !config.isCredentialsAllowed() && !origin.equals("null");
        h.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, star ? "*" : origin);
        if (config.isCredentialsAllowed()) {
            h.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_CREDENTIALS, "true");
        }
    }
}
