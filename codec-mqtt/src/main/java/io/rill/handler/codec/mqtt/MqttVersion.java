package io.rill.handler.codec.mqtt;

/** The protocol levels Rill speaks, as the CONNECT packet's protocol level byte names them. */
public enum MqttVersion {
    /** MQTT 3.1.1, protocol level 4. */
    V3_1_1(4),
    /** MQTT 5.0, protocol level 5: properties and reason codes on most packets. */
    V5(5);

    private final int level;

    MqttVersion(int level) {
        this.level = level;
    }

    /** {@return the protocol level byte of CONNECT} */
    public int level() {
        return level;
    }

    /** {@return true for MQTT 5.0} */
    public boolean isV5() {
        return this == V5;
    }

    /**
     * {@return the version of a CONNECT's protocol level, or null if Rill does not speak it}
     *
     * @param level the protocol level byte
     */
    public static MqttVersion ofLevel(int level) {
        return level == 4 ? V3_1_1 : level == 5 ? V5 : null;
    }
}
