package io.rill.handler.codec.mqtt;

import java.util.Objects;

/**
 * CONNACK (MQTT 5.0 section 3.2): the server's answer to CONNECT.
 *
 * @param sessionPresent true if the server resumed a session it kept
 * @param reasonCode the reason code (5.0) or return code (3.1.1); 0 accepts the connection
 * @param properties the CONNACK properties
 */
public record MqttConnAck(boolean sessionPresent, int reasonCode, MqttProperties properties) implements MqttMessage {

    /**
     * Checks the fields.
     *
     * @param sessionPresent true if the server resumed a session it kept
     * @param reasonCode the reason code (5.0) or return code (3.1.1); 0 accepts the connection
     * @param properties the CONNACK properties
     */
    public MqttConnAck {
        Objects.requireNonNull(properties, "properties");
        MqttWire.checkByte("reasonCode", reasonCode);
    }

    @Override
    public MqttPacketType type() {
        return MqttPacketType.CONNACK;
    }
}
