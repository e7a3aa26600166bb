package io.rill.handler.codec.http;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.util.concurrent.Promise;

/**
 * Closes the connection when HTTP says so (RFC 9112 §9.3), after the response that ends it: when
 * the request asked for {@code Connection: close} (or is HTTP/1.0 without keep-alive), when the
 * application's response says {@code Connection: close}, or when a response has no length and so
 * ends with the connection. Goes after {@link HttpServerCodec}; pipelined requests are counted so
 * only the response to the closing request closes.
 */
public class HttpServerKeepAliveHandler implements ChannelHandler {

    /** Requests read and not yet answered. Loop-confined. */
    private int pending;
    /** The request being answered asked for the connection to end. */
    private boolean closeAfterResponse;
    /** A request asked to close: requests after it are not passed on. */
    private boolean closing;
    /** A request after the closing one was dropped: its body and everything after it are dropped too. */
    private boolean dropping;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest request) {
            if (closing) {
                dropping = true;
                io.rill.buffer.ReferenceCountUtil.release(msg);
                return;
            }
            pending++;
            if (!HttpUtil.isKeepAlive(request)) {
                closing = true;
            }
        } else if (dropping || closing && pending == 0) {
            // The content of a dropped request used to pass while the closing one awaited its answer,
            // so the application got a body (or an empty last content) of a request it never saw.
            io.rill.buffer.ReferenceCountUtil.release(msg);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
        if (msg instanceof HttpResponse response && !response.status().isInformational()) {
            pending--;
            boolean lastRequest = closing && pending == 0;
            if (lastRequest || !HttpUtil.isKeepAlive(response) || !hasLength(response)) {
                HttpUtil.setKeepAlive(response, false);
                closeAfterResponse = true;
                closing = true;
            }
        }
        if (closeAfterResponse && msg instanceof LastHttpContent) {
            closeAfterResponse = false;
            ctx.write(msg, promise == ctx.voidPromise() ? ctx.newPromise() : promise).addListener(f -> ctx.close());
            return;
        }
        ctx.write(msg, promise);
    }

    /** Whether the client can tell where the body ends without the connection closing. */
    private static boolean hasLength(HttpResponse response) {
        int code = response.status().code();
        return response instanceof FullHttpMessage || code == 204 || code == 304
                || HttpUtil.isContentLengthSet(response) || HttpUtil.isTransferEncodingChunked(response);
    }
}
