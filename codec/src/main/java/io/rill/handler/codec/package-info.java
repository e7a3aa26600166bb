/**
 * The bases of every codec, and framing.
 *
 * <p>{@link io.rill.handler.codec.ByteToMessageDecoder} gathers bytes until a message is complete
 * and {@link io.rill.handler.codec.MessageToByteEncoder} turns messages into bytes;
 * {@link io.rill.handler.codec.MessageToMessageDecoder} and
 * {@link io.rill.handler.codec.MessageToMessageEncoder} turn one message into others; the
 * {@code ...Codec} classes join a decoder and an encoder in one handler. A decoder can
 * {@code suspendDecoding()} while what it produced waits for the peer.
 *
 * <p>Framing: {@link io.rill.handler.codec.FixedLengthFrameDecoder},
 * {@link io.rill.handler.codec.LengthFieldBasedFrameDecoder} with
 * {@link io.rill.handler.codec.LengthFieldPrepender}, {@link io.rill.handler.codec.LineBasedFrameDecoder},
 * {@link io.rill.handler.codec.DelimiterBasedFrameDecoder} and the varint32 pair. Every frame
 * decoder has a maximum frame length and fails past it with a
 * {@link io.rill.handler.codec.TooLongFrameException} that names the limit; nothing is buffered
 * without a bound. Bad input is a {@link io.rill.handler.codec.CorruptedFrameException} or another
 * {@link io.rill.handler.codec.DecoderException}; a decoded message that carries a failure says so
 * through {@link io.rill.handler.codec.DecoderResultProvider}.
 */
package io.rill.handler.codec;
