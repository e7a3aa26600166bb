package io.rill.handler.codec.mqtt;

import java.util.Objects;

/**
 * DISCONNECT (MQTT 5.0 section 3.14): the end of a connection, from the client, or in 5.0 from
 * either side.
 *
 * @param reasonCode the reason code (5.0; 0 in 3.1.1)
 * @param properties the properties (5.0)
 */
public record MqttDisconnect(int reasonCode, MqttProperties properties) implements MqttMessage {

    /** A normal disconnection without properties. */
    public static final MqttDisconnect NORMAL = new MqttDisconnect(MqttReasonCode.NORMAL_DISCONNECTION, MqttProperties.NONE);

    /**
     * Checks the fields.
     *
     * @param reasonCode the reason code (5.0; 0 in 3.1.1)
     * @param properties the properties (5.0)
     */
    public MqttDisconnect {
        MqttWire.checkByte("reasonCode", reasonCode);
        Objects.requireNonNull(properties, "properties");
    }

    @Override
    public MqttPacketType type() {
        return MqttPacketType.DISCONNECT;
    }
}
