/**
 * STOMP 1.2 (stomp.github.io/stomp-specification-1.2.html): {@link io.rill.handler.codec.stomp.StompFrameDecoder}
 * reads whole {@link io.rill.handler.codec.stomp.StompFrame}s and
 * {@link io.rill.handler.codec.stomp.StompHeartbeat}s, {@link io.rill.handler.codec.stomp.StompFrameEncoder}
 * writes them; the same two serve clients and brokers.
 *
 * <p>Bounds, each a {@link io.rill.handler.codec.stomp.StompDecoderException} naming it: the command or
 * a header line at most 8 KiB, at most 64 headers, a body at most 1 MiB (a {@code content-length}
 * over it fails at the header, before anything of the body is buffered). Header escapes are
 * decoded and encoded as 1.2 says (none in CONNECT and CONNECTED frames); an undefined escape, a
 * command that is not one of the spec's, or a body without its NUL fails. After a failure the
 * decoder drops everything that follows: a broker answers with an ERROR frame and closes.
 */
package io.rill.handler.codec.stomp;
