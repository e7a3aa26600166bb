package io.rill.handler.codec.mqtt;

/**
 * PINGREQ or PINGRESP (MQTT 5.0 sections 3.12 and 3.13): keep-alive, no content.
 *
 * @param type {@link MqttPacketType#PINGREQ} or {@link MqttPacketType#PINGRESP}
 */
public record MqttPing(MqttPacketType type) implements MqttMessage {

    /** The client's ping. */
    public static final MqttPing REQUEST = new MqttPing(MqttPacketType.PINGREQ);
    /** The server's answer. */
    public static final MqttPing RESPONSE = new MqttPing(MqttPacketType.PINGRESP);

    /**
     * Checks the type.
     *
     * @param type {@link MqttPacketType#PINGREQ} or {@link MqttPacketType#PINGRESP}
     */
    public MqttPing {
        if (type != MqttPacketType.PINGREQ && type != MqttPacketType.PINGRESP) {
            throw new IllegalArgumentException("not a ping: " + type);
        }
    }
}
