package io.rill.handler.codec.http2;

import java.util.LinkedHashMap;
import java.util.Map;

import io.rill.channel.AttributeKey;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelOption;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * Opens streams on an HTTP/2 connection as {@link Http2StreamChannel}s: a client's requests. The
 * connection's pipeline must hold an {@link Http2FrameCodec} followed by an
 * {@link Http2MultiplexHandler}.
 *
 * <pre>{@code
 * Http2StreamChannel stream = new Http2StreamChannelBootstrap(connection)
 *         .handler(new ResponseHandler())
 *         .open().sync().getNow();
 * stream.writeAndFlush(new Http2HeadersFrame(0, requestHeaders, true));
 * }</pre>
 *
 * <p>{@link #open()} numbers the stream at once (on the connection's event loop), so
 * {@link Http2StreamChannel#streamId()} is known before anything is sent; the stream opens when
 * its channel writes its first {@link Http2HeadersFrame}. Stream ids must reach the peer in
 * increasing order, so streams must send their first HEADERS in the order they were opened: a
 * stream whose first HEADERS would follow a later-opened stream's fails that write with an
 * {@link IllegalStateException} and closes (the peer never sees it).
 *
 * <p>Reusable: each {@link #open()} makes a new stream with the handler, options and attributes set
 * so far. Set up from one thread; {@link #open()} may be called from any.
 */
public final class Http2StreamChannelBootstrap {

    private final Channel connection;
    private final Map<ChannelOption<?>, Object> options = new LinkedHashMap<>();
    private final Map<AttributeKey<?>, Object> attributes = new LinkedHashMap<>();
    private ChannelHandler handler;

    /**
     * A bootstrap for streams of {@code connection}.
     *
     * @param connection a channel with {@link Http2FrameCodec} and {@link Http2MultiplexHandler}
     */
    public Http2StreamChannelBootstrap(Channel connection) {
        if (connection == null) {
            throw new NullPointerException("connection");
        }
        this.connection = connection;
    }

    /**
     * The handler added to each new stream's pipeline, typically a
     * {@link io.rill.channel.ChannelInitializer}; it must be sharable to open more than one stream.
     *
     * @param handler the handler
     * @return this bootstrap
     */
    public Http2StreamChannelBootstrap handler(ChannelHandler handler) {
        if (handler == null) {
            throw new NullPointerException("handler");
        }
        this.handler = handler;
        return this;
    }

    /**
     * An option set on each new stream channel before its handler is added ({@code AUTO_READ},
     * {@code WRITE_BUFFER_WATER_MARK}, ...); a null value removes it.
     *
     * @param option the option
     * @param value its value, or null
     * @param <T> the value's type
     * @return this bootstrap
     */
    public <T> Http2StreamChannelBootstrap option(ChannelOption<T> option, T value) {
        if (value == null) {
            options.remove(option);
        } else {
            options.put(option, value);
        }
        return this;
    }

    /**
     * An attribute set on each new stream channel before its handler is added; a null value removes it.
     *
     * @param key the attribute
     * @param value its value, or null
     * @param <T> the value's type
     * @return this bootstrap
     */
    public <T> Http2StreamChannelBootstrap attr(AttributeKey<T> key, T value) {
        if (value == null) {
            attributes.remove(key);
        } else {
            attributes.put(key, value);
        }
        return this;
    }

    /**
     * Numbers a new stream and makes its channel, registered and active, with the handler in its
     * pipeline. Fails if no handler was set, the connection has no {@link Http2MultiplexHandler} or
     * is not active, or the stream ids are exhausted ({@link Http2Exception}: open a new connection).
     *
     * @return the stream's channel, completed on the connection's event loop
     */
    public Future<Http2StreamChannel> open() {
        Promise<Http2StreamChannel> promise = connection.eventLoop().newPromise();
        if (handler == null) {
            return promise.setFailure(new IllegalStateException("handler not set: call handler(...) first"));
        }
        ChannelHandler h = handler;
        Map<ChannelOption<?>, Object> o = new LinkedHashMap<>(options);
        Map<AttributeKey<?>, Object> a = new LinkedHashMap<>(attributes);
        if (connection.eventLoop().inEventLoop()) {
            open(h, o, a, promise);
        } else {
            connection.eventLoop().execute(() -> open(h, o, a, promise));
        }
        return promise;
    }

    private void open(ChannelHandler h, Map<ChannelOption<?>, Object> o, Map<AttributeKey<?>, Object> a,
                      Promise<Http2StreamChannel> promise) {
        Http2MultiplexHandler multiplex = connection.pipeline().get(Http2MultiplexHandler.class);
        if (multiplex == null) {
            promise.tryFailure(new IllegalStateException("no Http2MultiplexHandler in the pipeline of " + connection));
            return;
        }
        try {
            Http2StreamChannel child = multiplex.openOutbound(h, c -> setUp(c, o, a));
            promise.trySuccess(child);
        } catch (Throwable t) {
            promise.tryFailure(t);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void setUp(Http2StreamChannel child, Map<ChannelOption<?>, Object> o, Map<AttributeKey<?>, Object> a) {
        child.config().setOptions(o);
        for (Map.Entry<AttributeKey<?>, Object> e : a.entrySet()) {
            child.attr((AttributeKey) e.getKey()).set(e.getValue());
        }
    }
}
