package io.rill.handler.codec.mqtt;

import java.util.Objects;

/**
 * The value of a {@link MqttPropertyId#USER_PROPERTY}: a name and a value, both UTF-8 strings.
 *
 * @param name the name
 * @param value the value
 */
public record MqttUserProperty(String name, String value) {

    /**
     * Checks both strings are present.
     *
     * @param name the name
     * @param value the value
     */
    public MqttUserProperty {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
    }
}
