/**
 * HTTP/1.1 (RFC 9110, RFC 9112), server and client. The module's own page walks through a first
 * server; this page is the map.
 *
 * <h2>Where to start</h2>
 * <ul>
 *   <li>A server: {@link io.rill.handler.codec.http.HttpServerCodec} in each accepted
 *       connection's pipeline, then {@link io.rill.handler.codec.http.HttpServerKeepAliveHandler}
 *       (closes after the response when HTTP says so), then your handler.</li>
 *   <li>A client: {@link io.rill.handler.codec.http.HttpClientCodec}, then your handler; write an
 *       {@link io.rill.handler.codec.http.HttpRequest} (with a {@code Host} field) and read the
 *       response.</li>
 *   <li>Whole messages instead of pieces: an {@link io.rill.handler.codec.http.HttpObjectAggregator}
 *       with a size limit after the codec gives {@link io.rill.handler.codec.http.FullHttpRequest}s
 *       or {@link io.rill.handler.codec.http.FullHttpResponse}s.</li>
 * </ul>
 *
 * <h2>The message model</h2>
 * A message arrives as its head ({@link io.rill.handler.codec.http.HttpRequest} or
 * {@link io.rill.handler.codec.http.HttpResponse}) followed by its body in
 * {@link io.rill.handler.codec.http.HttpContent} pieces, the last one a
 * {@link io.rill.handler.codec.http.LastHttpContent} (also when there is no body). Contents are
 * reference counted: the handler that receives one releases it or passes it on, and what is
 * written belongs to the pipeline. {@link io.rill.handler.codec.http.HttpHeaders} validates names
 * and values as they are set; {@link io.rill.handler.codec.http.HttpHeaderNames} and
 * {@link io.rill.handler.codec.http.HttpHeaderValues} are lower-case constants;
 * {@link io.rill.handler.codec.http.HttpUtil} reads keep-alive, lengths and chunking from a message.
 *
 * <h2>Safe by default</h2>
 * The decoders follow RFC 9112 strictly and have limits ({@link io.rill.handler.codec.http.HttpDecoderConfig}:
 * request line, header section, body pieces); the server codec refuses a bad request with the
 * status that fits (400, 414, 431, 501, 505) after answering the ones pipelined before it, and
 * closes lingering. It also times clients out ({@link io.rill.handler.codec.http.HttpServerTimeouts}:
 * idle connections, slow heads, slow bodies) and bounds pipelining.
 * {@link io.rill.handler.codec.http.HttpContentDecompressor} caps what a body may inflate to.
 *
 * <h2>The rest</h2>
 * {@link io.rill.handler.codec.http.HttpServerExpectContinueHandler} answers
 * {@code Expect: 100-continue}; {@link io.rill.handler.codec.http.HttpContentCompressor}
 * compresses responses; {@link io.rill.handler.codec.http.HttpChunkedInput} sends a
 * {@code ChunkedInput} as a chunked body; {@link io.rill.handler.codec.http.QueryStringDecoder}
 * and {@link io.rill.handler.codec.http.QueryStringEncoder} handle request targets;
 * {@link io.rill.handler.codec.http.HttpRequestRecorder} emits a JFR event per request. Cookies,
 * CORS, forms and multipart are in the sub-packages; WebSocket in {@code .websocketx}. HTTP/2 is
 * in a module of its own, rill-codec-http2, built on this one.
 */
package io.rill.handler.codec.http;
