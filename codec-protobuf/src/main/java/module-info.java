/**
 * Protocol Buffers messages on a channel: {@link io.rill.handler.codec.protobuf.ProtobufDecoder}
 * and {@link io.rill.handler.codec.protobuf.ProtobufEncoder}, over the application's own
 * protobuf-java (read statically: the application requires {@code com.google.protobuf} itself,
 * as its generated classes do).
 */
module io.rill.codec.protobuf {
    requires transitive io.rill.codec;
    requires static com.google.protobuf;

    exports io.rill.handler.codec.protobuf;
}
