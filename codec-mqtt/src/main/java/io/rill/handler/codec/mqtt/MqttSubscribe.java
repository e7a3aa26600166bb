package io.rill.handler.codec.mqtt;

import java.util.List;
import java.util.Objects;

/**
 * SUBSCRIBE (MQTT 5.0 section 3.8): one or more topic filters.
 *
 * @param packetId the packet identifier, 1 to 65535
 * @param subscriptions the filters with their options, at least one
 * @param properties the properties (5.0): a subscription identifier, user properties
 */
public record MqttSubscribe(int packetId, List<MqttSubscription> subscriptions, MqttProperties properties)
        implements MqttMessage {

    /**
     * Checks the fields and copies the list.
     *
     * @param packetId the packet identifier, 1 to 65535
     * @param subscriptions the filters with their options, at least one
     * @param properties the properties (5.0): a subscription identifier, user properties
     */
    public MqttSubscribe {
        MqttWire.checkPacketId(packetId);
        subscriptions = List.copyOf(subscriptions);
        if (subscriptions.isEmpty()) {
            throw new IllegalArgumentException("SUBSCRIBE needs a topic filter");
        }
        Objects.requireNonNull(properties, "properties");
    }

    @Override
    public MqttPacketType type() {
        return MqttPacketType.SUBSCRIBE;
    }
}
