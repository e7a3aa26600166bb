package io.rill.handler.codec.mqtt;

import java.util.List;
import java.util.Objects;

/**
 * UNSUBSCRIBE (MQTT 5.0 section 3.10): one or more topic filters to drop.
 *
 * @param packetId the packet identifier, 1 to 65535
 * @param filters the topic filters, at least one
 * @param properties the properties (5.0)
 */
public record MqttUnsubscribe(int packetId, List<String> filters, MqttProperties properties) implements MqttMessage {

    /**
     * Checks the fields and copies the list.
     *
     * @param packetId the packet identifier, 1 to 65535
     * @param filters the topic filters, at least one
     * @param properties the properties (5.0)
     */
    public MqttUnsubscribe {
        MqttWire.checkPacketId(packetId);
        filters = List.copyOf(filters);
        if (filters.isEmpty()) {
            throw new IllegalArgumentException("UNSUBSCRIBE needs a topic filter");
        }
        Objects.requireNonNull(properties, "properties");
    }

    @Override
    public MqttPacketType type() {
        return MqttPacketType.UNSUBSCRIBE;
    }
}
