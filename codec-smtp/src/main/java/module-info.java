/**
 * The client side of SMTP (RFC 5321): requests, message content and replies. See
 * {@link io.rill.handler.codec.smtp}.
 */
module io.rill.codec.smtp {
    requires transitive io.rill.codec;

    exports io.rill.handler.codec.smtp;
}
