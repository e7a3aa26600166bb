package io.rill.handler.codec.http;

import java.util.ArrayDeque;

import jdk.jfr.FlightRecorder;

import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.util.concurrent.Promise;

/**
 * Reports each request this connection serves as a JFR {@code io.rill.HttpRequestServed} event
 * (method, path, status, response body bytes, response time), while a recording has that event on; it
 * is off by default. Put it right after the {@link HttpServerCodec}:
 * <pre>{@code
 * pipeline.addLast(new HttpServerCodec(), new HttpRequestRecorder(), new MyHandler());
 * }</pre>
 * While the event is off it keeps two counters and allocates nothing. Pipelined requests are
 * matched to their responses in order (HTTP/1.1 answers in order); a request read before the
 * recording began is not reported. {@code 1xx} interim responses do not end a request.
 *
 * <p>One instance per channel (not {@code @Sharable}); event loop only.
 */
public final class HttpRequestRecorder implements ChannelHandler {

    /** Requests read so far; the sequence number of the next one is this value. */
    private long requestsRead;
    /** Final responses begun so far. */
    private long responsesBegun;
    /** Requests read while the event was on, oldest first; null until the first one. */
    private ArrayDeque<Served> pending;
    /** The request whose response is being written, if it is being recorded. */
    private Served responding;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest request) {
            long sequence = requestsRead++;
            // FlightRecorder first: loading the event class would load all of JFR.
            if (FlightRecorder.isInitialized() && HttpRequestServedEvent.PROBE.isEnabled()) {
                if (pending == null) {
                    pending = new ArrayDeque<>(4);
                }
                pending.add(new Served(sequence, request.method().name(), pathOf(request.uri()), System.nanoTime()));
            }
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
        if (msg instanceof HttpResponse response && response.status().kind() != HttpResponseStatus.Kind.INFORMATIONAL) {
            responding = take(responsesBegun++);
            if (responding != null) {
                responding.status = response.status().code();
            }
        }
        Served served = responding;
        if (served != null) {
            if (msg instanceof HttpContent content) {
                served.bytes += content.content().readableBytes();
            }
            if (msg instanceof LastHttpContent) {
                responding = null;
                served.commit();
            }
        }
        ctx.write(msg, promise);
    }

    /** The recorded request with this sequence number, dropping older ones that were never answered; or null. */
    private Served take(long sequence) {
        if (pending == null) {
            return null;
        }
        for (Served head = pending.peek(); head != null && head.sequence <= sequence; head = pending.peek()) {
            pending.poll();
            if (head.sequence == sequence) {
                return head;
            }
        }
        return null;
    }

    private static String pathOf(String uri) {
        int query = uri.indexOf('?');
        return query < 0 ? uri : uri.substring(0, query);
    }

    /** One request being served: what the event will say. */
    private static final class Served {
        final long sequence;
        final String method;
        final String path;
        final long startNanos;
        int status;
        long bytes;

        Served(long sequence, String method, String path, long startNanos) {
            this.sequence = sequence;
            this.method = method;
            this.path = path;
            this.startNanos = startNanos;
        }

        void commit() {
            HttpRequestServedEvent event = new HttpRequestServedEvent();
            if (event.shouldCommit()) {
                event.method = method;
                event.path = path;
                event.status = status;
                event.bytes = bytes;
                event.responseTime = System.nanoTime() - startNanos;
                event.commit();
            }
        }
    }
}
