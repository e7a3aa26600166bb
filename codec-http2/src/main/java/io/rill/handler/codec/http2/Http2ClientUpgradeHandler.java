package io.rill.handler.codec.http2;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Supplier;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelPipeline;
import io.rill.handler.codec.http.HttpClientCodec;
import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaderValues;
import io.rill.handler.codec.http.HttpObject;
import io.rill.handler.codec.http.HttpRequest;
import io.rill.handler.codec.http.HttpResponse;
import io.rill.handler.codec.http.HttpResponseStatus;
import io.rill.util.concurrent.Promise;

/**
 * The client side of the h2c upgrade (RFC 7540 §3.2): put it after {@link HttpClientCodec} on a
 * cleartext connection and write the first request as usual. The request goes out with
 * {@code Upgrade: h2c}, {@code Connection: Upgrade, HTTP2-Settings} and this side's SETTINGS in
 * {@code HTTP2-Settings}. If the server answers {@code 101}, the handlers from the HTTP/1 codec to
 * the end of the pipeline are replaced by the {@link Http2FrameCodec} (made when the request was
 * written) and the handler the supplier makes; the request is stream 1, whose response then
 * arrives as HTTP/2 frames, and {@link Event#UPGRADED} is fired. Any other answer is passed on as
 * the HTTP/1.1 response to the request, after {@link Event#REJECTED}; the connection stays
 * HTTP/1.1 and this handler leaves. Only the first request asks; a request with a body is better
 * sent after the upgrade (or with prior knowledge), as the server must read all of it in HTTP/1.1.
 *
 * <p>All methods run on the channel's event loop; one instance per connection.
 */
public final class Http2ClientUpgradeHandler implements ChannelHandler {

    /** The outcome of the upgrade, fired as a user event after the HTTP/1 or HTTP/2 handlers are in place. */
    public enum Event {
        /** The server switched to HTTP/2: stream 1's response follows as HTTP/2 frames. */
        UPGRADED,
        /** The server answered in HTTP/1.1: the response follows as HTTP/1.1 messages. */
        REJECTED
    }

    private enum State { IDLE, ASKED, UPGRADED }

    private final Supplier<Http2FrameCodec> codecFactory;
    private final Supplier<? extends ChannelHandler> http2Handler;
    /** The codec whose settings the request announced; taken over by the pipeline after 101. */
    private Http2FrameCodec codec;
    private State state = State.IDLE;

    /**
     * An upgrade handler.
     *
     * @param codecFactory makes the client HTTP/2 codec, e.g. {@code () -> Http2FrameCodec.forClient().build()}
     * @param http2Handler makes the handler placed after the codec (a multiplex handler, or an
     *        initializer that adds a {@link Http2StreamFrameToHttpObjectCodec} for stream 1)
     */
    public Http2ClientUpgradeHandler(Supplier<Http2FrameCodec> codecFactory,
                                     Supplier<? extends ChannelHandler> http2Handler) {
        this.codecFactory = codecFactory;
        this.http2Handler = http2Handler;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
        if (state == State.IDLE && msg instanceof HttpRequest request) {
            state = State.ASKED;
            codec = codecFactory.get();
            request.headers().set(HttpHeaderNames.UPGRADE, "h2c")
                    .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE + ", " + HttpHeaderNames.HTTP2_SETTINGS)
                    .set(HttpHeaderNames.HTTP2_SETTINGS, encodeSettings(codec.localSettings()));
        }
        ctx.write(msg, promise);
    }

    /** A SETTINGS payload as HTTP2-Settings carries it: base64url without padding (§3.2.1). */
    static String encodeSettings(Http2Settings settings) {
        ByteBuffer payload = ByteBuffer.allocate(settings.size() * 6);
        settings.forEach((id, value) -> payload.putShort((short) id).putInt((int) value));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(payload.array());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (state == State.UPGRADED) {
            if (msg instanceof HttpObject) {
                ReferenceCountUtil.release(msg); // the 101's end, decoded with it; it says nothing
                ctx.pipeline().remove(this);
            } else {
                ctx.fireChannelRead(msg);
            }
            return;
        }
        if (state == State.ASKED && msg instanceof HttpResponse response) {
            if (response.status().code() == HttpResponseStatus.SWITCHING_PROTOCOLS.code()
                    && response.headers().containsValue(HttpHeaderNames.UPGRADE, "h2c", true)) {
                ReferenceCountUtil.release(msg);
                upgrade(ctx);
                return;
            }
            if (!response.status().isInformational()) {
                codec = null;
                ctx.fireUserEventTriggered(Event.REJECTED);
                ctx.fireChannelRead(msg);
                ctx.pipeline().remove(this);
                return;
            }
        }
        ctx.fireChannelRead(msg);
    }

    /**
     * HTTP/2 from here on. This handler stays until the end of the 101 (decoded with it) has
     * passed, so that it does not reach the HTTP/2 codec; the bytes after it do.
     */
    private void upgrade(ChannelHandlerContext ctx) throws Exception {
        state = State.UPGRADED;
        ChannelPipeline pipeline = ctx.pipeline();
        ChannelHandlerContext http1 = pipeline.context(HttpClientCodec.class);
        if (http1 == null) {
            throw new IllegalStateException("Http2ClientUpgradeHandler needs an HttpClientCodec before it");
        }
        List<String> names = pipeline.names();
        List<String> http1Handlers = new ArrayList<>(names.subList(names.indexOf(http1.name()), names.size()));
        http1Handlers.remove(ctx.name());
        http1Handlers.removeIf(name -> pipeline.context(name) == null);
        pipeline.addAfter(ctx.name(), null, codec);
        pipeline.addAfter(pipeline.context(codec).name(), null, http2Handler.get());
        for (String name : http1Handlers) {
            pipeline.remove(name); // the HTTP/1 codec passes what it read after the 101 on to us, then to HTTP/2
        }
        codec.upgradedToHttp2();
        pipeline.context(codec).fireUserEventTriggered(Event.UPGRADED);
        codec = null;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelReadComplete();
        if (state == State.UPGRADED && !ctx.isRemoved()) {
            ctx.pipeline().remove(this);
        }
    }
}
