package io.rill.handler.codec.mqtt;

import java.util.List;
import java.util.Objects;

/**
 * SUBACK (MQTT 5.0 section 3.9): one reason code per filter of the SUBSCRIBE, in order.
 *
 * @param packetId the packet identifier of the SUBSCRIBE
 * @param reasonCodes the granted QoS or the failure, at least one
 * @param properties the properties (5.0)
 */
public record MqttSubAck(int packetId, List<Integer> reasonCodes, MqttProperties properties) implements MqttMessage {

    /**
     * Checks the fields and copies the list.
     *
     * @param packetId the packet identifier of the SUBSCRIBE
     * @param reasonCodes the granted QoS or the failure, at least one
     * @param properties the properties (5.0)
     */
    public MqttSubAck {
        MqttWire.checkPacketId(packetId);
        reasonCodes = List.copyOf(reasonCodes);
        if (reasonCodes.isEmpty()) {
            throw new IllegalArgumentException("SUBACK needs a reason code");
        }
        reasonCodes.forEach(code -> MqttWire.checkByte("reasonCode", code));
        Objects.requireNonNull(properties, "properties");
    }

    @Override
    public MqttPacketType type() {
        return MqttPacketType.SUBACK;
    }
}
