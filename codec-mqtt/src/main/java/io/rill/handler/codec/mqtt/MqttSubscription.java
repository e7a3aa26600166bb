package io.rill.handler.codec.mqtt;

import java.util.Objects;

/**
 * One topic filter of a SUBSCRIBE with its options (MQTT 5.0 section 3.8.3.1; 3.1.1 has only the
 * QoS).
 *
 * @param filter the topic filter
 * @param qos the maximum QoS, 0 to 2
 * @param noLocal 5.0: do not send back messages this client published
 * @param retainAsPublished 5.0: keep the retain flag of forwarded messages
 * @param retainHandling 5.0: 0 send retained messages, 1 only for a new subscription, 2 never
 */
public record MqttSubscription(String filter, int qos, boolean noLocal, boolean retainAsPublished, int retainHandling) {

    /**
     * Checks the fields.
     *
     * @param filter the topic filter
     * @param qos the maximum QoS, 0 to 2
     * @param noLocal 5.0: do not send back messages this client published
     * @param retainAsPublished 5.0: keep the retain flag of forwarded messages
     * @param retainHandling 5.0: 0 send retained messages, 1 only for a new subscription, 2 never
     */
    public MqttSubscription {
        Objects.requireNonNull(filter, "filter");
        MqttPublish.checkQos(qos);
        if (retainHandling < 0 || retainHandling > 2) {
            throw new IllegalArgumentException("retainHandling: " + retainHandling);
        }
    }

    /**
     * A subscription with default options.
     *
     * @param filter the topic filter
     * @param qos the maximum QoS
     */
    public MqttSubscription(String filter, int qos) {
        this(filter, qos, false, false, 0);
    }
}
