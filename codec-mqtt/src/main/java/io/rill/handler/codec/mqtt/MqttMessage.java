package io.rill.handler.codec.mqtt;

/**
 * One MQTT control packet. Only {@link MqttPublish} holds a buffer (its payload) and must be
 * released; the others are plain values.
 */
public sealed interface MqttMessage permits MqttConnect, MqttConnAck, MqttPublish, MqttPubAck, MqttSubscribe,
        MqttSubAck, MqttUnsubscribe, MqttUnsubAck, MqttPing, MqttDisconnect, MqttAuth {

    /** {@return the packet type} */
    MqttPacketType type();
}
