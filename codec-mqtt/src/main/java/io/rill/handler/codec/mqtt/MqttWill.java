package io.rill.handler.codec.mqtt;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The will message of a CONNECT: published by the server when the connection ends without a
 * DISCONNECT (MQTT 5.0 section 3.1.2.5).
 *
 * @param topic the topic name
 * @param payload the message
 * @param qos 0, 1 or 2
 * @param retain true to publish it retained
 * @param properties the will properties (MQTT 5; {@link MqttProperties#NONE} in 3.1.1)
 */
public record MqttWill(String topic, byte[] payload, int qos, boolean retain, MqttProperties properties) {

    /**
     * Checks the fields.
     *
     * @param topic the topic name
     * @param payload the message
     * @param qos 0, 1 or 2
     * @param retain true to publish it retained
     * @param properties the will properties (MQTT 5; {@link MqttProperties#NONE} in 3.1.1)
     */
    public MqttWill {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(properties, "properties");
        MqttPublish.checkQos(qos);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MqttWill w && topic.equals(w.topic) && Arrays.equals(payload, w.payload) && qos == w.qos
                && retain == w.retain && properties.equals(w.properties);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, Arrays.hashCode(payload), qos, retain, properties);
    }

    @Override
    public String toString() {
        return "MqttWill[topic=" + topic + ", payload=" + HexFormat.of().formatHex(payload) + ", qos=" + qos + ", retain="
                + retain + ", properties=" + properties + "]";
    }
}
