package io.rill.handler.codec.mqtt;

/**
 * A CONNECT asked for a protocol name or level Rill does not speak (MQTT 3.1's "MQIsdp" level 3, or
 * a future level). A broker answers with CONNACK return code
 * {@link MqttReasonCode#V3_UNACCEPTABLE_PROTOCOL_VERSION} in 3.1.1 form (section 3.1.2.2 of both
 * specifications), then closes.
 */
public final class MqttUnsupportedVersionException extends MqttDecoderException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the protocol name and level asked for
     */
    public MqttUnsupportedVersionException(String message) {
        super(MqttReasonCode.UNSUPPORTED_PROTOCOL_VERSION, message);
    }
}
