/**
 * MQTT 3.1.1 and 5.0: every control packet, MQTT 5 properties and reason codes, and one codec for
 * either side of a connection; see {@link io.rill.handler.codec.mqtt}.
 */
module io.rill.codec.mqtt {
    requires transitive io.rill.codec;

    exports io.rill.handler.codec.mqtt;
}
