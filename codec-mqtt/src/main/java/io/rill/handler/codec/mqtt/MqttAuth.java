package io.rill.handler.codec.mqtt;

import java.util.Objects;

/**
 * AUTH (MQTT 5.0 section 3.15): a step of extended authentication; MQTT 5 only.
 *
 * @param reasonCode success, continue authentication or re-authenticate
 * @param properties the properties: the authentication method and data
 */
public record MqttAuth(int reasonCode, MqttProperties properties) implements MqttMessage {

    /**
     * Checks the fields.
     *
     * @param reasonCode success, continue authentication or re-authenticate
     * @param properties the properties: the authentication method and data
     */
    public MqttAuth {
        MqttWire.checkByte("reasonCode", reasonCode);
        Objects.requireNonNull(properties, "properties");
    }

    @Override
    public MqttPacketType type() {
        return MqttPacketType.AUTH;
    }
}
