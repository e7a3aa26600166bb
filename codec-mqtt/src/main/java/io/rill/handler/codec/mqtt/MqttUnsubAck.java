package io.rill.handler.codec.mqtt;

import java.util.List;
import java.util.Objects;

/**
 * UNSUBACK (MQTT 5.0 section 3.11): in 5.0 one reason code per filter of the UNSUBSCRIBE; in 3.1.1
 * none, so the list is empty.
 *
 * @param packetId the packet identifier of the UNSUBSCRIBE
 * @param reasonCodes the outcome per filter (5.0), empty in 3.1.1
 * @param properties the properties (5.0)
 */
public record MqttUnsubAck(int packetId, List<Integer> reasonCodes, MqttProperties properties) implements MqttMessage {

    /**
     * Checks the fields and copies the list.
     *
     * @param packetId the packet identifier of the UNSUBSCRIBE
     * @param reasonCodes the outcome per filter (5.0), empty in 3.1.1
     * @param properties the properties (5.0)
     */
    public MqttUnsubAck {
        MqttWire.checkPacketId(packetId);
        reasonCodes = List.copyOf(reasonCodes);
        reasonCodes.forEach(code -> MqttWire.checkByte("reasonCode", code));
        Objects.requireNonNull(properties, "properties");
    }

    @Override
    public MqttPacketType type() {
        return MqttPacketType.UNSUBACK;
    }
}
