/**
 * Protocol Buffers over a byte stream. Protobuf messages carry no length of their own, so a
 * framing decoder goes first; the usual stream is varint-delimited ({@code writeDelimitedTo}):
 *
 * <pre>{@code
 * pipeline.addLast(new ProtobufVarint32FrameDecoder(1 << 20),          // io.rill.handler.codec
 *                  new ProtobufDecoder(MyRequest.getDefaultInstance()),
 *                  ProtobufEncoder.DELIMITED,                           // length prefix and message in one buffer
 *                  new MyHandler());
 * }</pre>
 *
 * <p>Both are bounded: the decoder refuses a frame over {@code maxMessageBytes} (4 MiB by default,
 * gRPC's limit) before parsing it and nests groups and messages at most {@code recursionLimit}
 * deep (100); a malformed message is a {@link io.rill.handler.codec.protobuf.ProtobufDecoderException}
 * naming the type, and the frames after it still decode. protobuf-java is an optional dependency:
 * add the version your generated code needs.
 */
package io.rill.handler.codec.protobuf;
