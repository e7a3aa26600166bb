/** STOMP 1.2 frames over a byte stream. See {@link io.rill.handler.codec.stomp}. */
module io.rill.codec.stomp {
    requires transitive io.rill.codec;

    exports io.rill.handler.codec.stomp;
}
