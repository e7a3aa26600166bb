package io.rill.handler.codec.mqtt;

import java.util.Objects;

/**
 * PUBACK, PUBREC, PUBREL or PUBCOMP (MQTT 5.0 sections 3.4 to 3.7): the acknowledgements of a
 * QoS 1 or 2 PUBLISH, which share one layout.
 *
 * @param type one of the four acknowledgement types
 * @param packetId the packet identifier, 1 to 65535
 * @param reasonCode the reason code (5.0; always 0 in 3.1.1)
 * @param properties the properties (5.0)
 */
public record MqttPubAck(MqttPacketType type, int packetId, int reasonCode, MqttProperties properties)
        implements MqttMessage {

    /**
     * Checks the fields.
     *
     * @param type one of the four acknowledgement types
     * @param packetId the packet identifier, 1 to 65535
     * @param reasonCode the reason code (5.0; always 0 in 3.1.1)
     * @param properties the properties (5.0)
     */
    public MqttPubAck {
        if (type != MqttPacketType.PUBACK && type != MqttPacketType.PUBREC && type != MqttPacketType.PUBREL
                && type != MqttPacketType.PUBCOMP) {
            throw new IllegalArgumentException("not a publish acknowledgement: " + type);
        }
        MqttWire.checkPacketId(packetId);
        MqttWire.checkByte("reasonCode", reasonCode);
        Objects.requireNonNull(properties, "properties");
    }

    /**
     * A successful acknowledgement without properties.
     *
     * @param type the acknowledgement type
     * @param packetId the packet identifier
     */
    public MqttPubAck(MqttPacketType type, int packetId) {
        this(type, packetId, MqttReasonCode.SUCCESS, MqttProperties.NONE);
    }
}
