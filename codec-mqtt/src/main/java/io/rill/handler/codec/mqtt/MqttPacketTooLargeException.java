package io.rill.handler.codec.mqtt;

/**
 * A packet's fixed header announced more bytes than the codec's maximum packet size. Raised from the
 * fixed header alone, before any of the body is buffered; reason code
 * {@link MqttReasonCode#PACKET_TOO_LARGE}.
 */
public final class MqttPacketTooLargeException extends MqttDecoderException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param size the packet size the fixed header announced
     * @param limit the codec's maximum packet size
     */
    public MqttPacketTooLargeException(long size, int limit) {
        super(MqttReasonCode.PACKET_TOO_LARGE, "MQTT packet of " + size + " bytes is larger than maxPacketSize " + limit);
    }
}
