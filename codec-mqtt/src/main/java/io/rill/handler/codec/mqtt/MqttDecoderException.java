package io.rill.handler.codec.mqtt;

import io.rill.handler.codec.CorruptedFrameException;

/**
 * The bytes received are not a valid MQTT packet, or a packet broke the protocol. Carries the MQTT 5
 * reason code the receiver sends before closing (in CONNACK when the CONNECT was refused, else in
 * DISCONNECT; MQTT 5.0 section 4.13), usually {@link MqttReasonCode#MALFORMED_PACKET} or
 * {@link MqttReasonCode#PROTOCOL_ERROR}. After one, the codec decodes nothing more on that channel.
 */
public class MqttDecoderException extends CorruptedFrameException {

    private static final long serialVersionUID = 1L;

    /** The MQTT 5 reason code to answer with. */
    private final int reasonCode;

    /**
     * Creates the exception.
     *
     * @param reasonCode the MQTT 5 reason code to answer with
     * @param message what was wrong, quoting the input
     */
    public MqttDecoderException(int reasonCode, String message) {
        super(message);
        this.reasonCode = reasonCode;
    }

    /** {@return the MQTT 5 reason code to send in CONNACK or DISCONNECT} */
    public int reasonCode() {
        return reasonCode;
    }
}
