package io.rill.handler.codec.mqtt;

import java.util.Objects;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufHolder;
import io.rill.buffer.ByteBufUtil;

/**
 * PUBLISH (MQTT 5.0 section 3.3): an application message. Holds its payload, which the receiver
 * must release; a decoded payload is a slice of the received bytes, not a copy.
 *
 * @param topic the topic name; empty in 5.0 only when a topic alias stands for it
 * @param qos 0, 1 or 2
 * @param retained the RETAIN flag: true to have the server keep it for future subscribers
 * @param dup true if this is a redelivery (QoS 1 and 2 only)
 * @param packetId the packet identifier, 1 to 65535 for QoS 1 and 2, 0 for QoS 0
 * @param properties the properties (5.0)
 * @param content the payload
 */
public record MqttPublish(String topic, int qos, boolean retained, boolean dup, int packetId, MqttProperties properties,
                          ByteBuf content) implements MqttMessage, ByteBufHolder {

    /**
     * Checks the fields: a packet identifier exactly when QoS is above 0, no DUP on QoS 0.
     *
     * @param topic the topic name; empty in 5.0 only when a topic alias stands for it
     * @param qos 0, 1 or 2
     * @param retained the RETAIN flag: true to have the server keep it for future subscribers
     * @param dup true if this is a redelivery (QoS 1 and 2 only)
     * @param packetId the packet identifier, 1 to 65535 for QoS 1 and 2, 0 for QoS 0
     * @param properties the properties (5.0)
     * @param content the payload
     */
    public MqttPublish {
        Objects.requireNonNull(topic, "topic");
        checkQos(qos);
        if (qos == 0) {
            if (packetId != 0 || dup) {
                throw new IllegalArgumentException("QoS 0 PUBLISH has no packet identifier and no DUP flag");
            }
        } else {
            MqttWire.checkPacketId(packetId);
        }
        Objects.requireNonNull(properties, "properties");
        Objects.requireNonNull(content, "content");
    }

    @Override
    public MqttPacketType type() {
        return MqttPacketType.PUBLISH;
    }

    @Override
    public MqttPublish replace(ByteBuf content) {
        return new MqttPublish(topic, qos, retained, dup, packetId, properties, content);
    }

    /**
     * {@return this message with another packet identifier and DUP flag, sharing the payload}
     * (a redelivery, or a message forwarded to a subscriber at its QoS)
     *
     * @param qos the QoS to send at
     * @param packetId the packet identifier for that QoS
     * @param dup the DUP flag
     * @param retained the RETAIN flag
     */
    public MqttPublish with(int qos, int packetId, boolean dup, boolean retained) {
        return new MqttPublish(topic, qos, retained, dup, packetId, properties, content);
    }

    @Override
    public MqttPublish retain() {
        content.retain();
        return this;
    }

    @Override
    public MqttPublish touch(Object hint) {
        content.touch(hint);
        return this;
    }

    /** Prints the payload as hex (payloads may be binary), so equal messages print alike. */
    @Override
    public String toString() {
        return "MqttPublish[topic=" + topic + ", qos=" + qos + ", retained=" + retained + ", dup=" + dup + ", packetId="
                + packetId + ", properties=" + properties + ", content=" + ByteBufUtil.hexDump(content) + "]";
    }

    static void checkQos(int qos) {
        if (qos < 0 || qos > 2) {
            throw new IllegalArgumentException("QoS must be 0, 1 or 2: " + qos);
        }
    }
}
