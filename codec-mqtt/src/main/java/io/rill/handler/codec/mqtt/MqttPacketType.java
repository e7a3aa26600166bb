package io.rill.handler.codec.mqtt;

/**
 * The fifteen control packet types (MQTT 5.0 section 2.1.2), with the direction each may travel and
 * the low nibble of its fixed header's first byte, which is fixed for every type but PUBLISH.
 */
public enum MqttPacketType {
    /** a client asks to connect. */
    CONNECT(1, true, false, 0),
    /** the server answers CONNECT. */
    CONNACK(2, false, true, 0),
    /** an application message, either way. */
    PUBLISH(3, true, true, -1),
    /** QoS 1 acknowledgement. */
    PUBACK(4, true, true, 0),
    /** QoS 2 delivery, part 1: received. */
    PUBREC(5, true, true, 0),
    /** QoS 2 delivery, part 2: release. */
    PUBREL(6, true, true, 2),
    /** QoS 2 delivery, part 3: complete. */
    PUBCOMP(7, true, true, 0),
    /** a client subscribes. */
    SUBSCRIBE(8, true, false, 2),
    /** the server answers SUBSCRIBE. */
    SUBACK(9, false, true, 0),
    /** a client unsubscribes. */
    UNSUBSCRIBE(10, true, false, 2),
    /** the server answers UNSUBSCRIBE. */
    UNSUBACK(11, false, true, 0),
    /** a client's keep-alive ping. */
    PINGREQ(12, true, false, 0),
    /** the server answers PINGREQ. */
    PINGRESP(13, false, true, 0),
    /** the end of the connection (from a server too in MQTT 5). */
    DISCONNECT(14, true, true, 0),
    /** extended authentication (MQTT 5 only). */
    AUTH(15, true, true, 0);

    private static final MqttPacketType[] BY_CODE = new MqttPacketType[16];

    static {
        for (MqttPacketType type : values()) {
            BY_CODE[type.code] = type;
        }
    }

    private final int code;
    private final boolean toServer;
    private final boolean toClient;
    /** The flags nibble every packet of this type carries; -1 for PUBLISH, whose flags vary. */
    private final int fixedFlags;

    MqttPacketType(int code, boolean toServer, boolean toClient, int fixedFlags) {
        this.code = code;
        this.toServer = toServer;
        this.toClient = toClient;
        this.fixedFlags = fixedFlags;
    }

    /** {@return the type code, the high nibble of the fixed header's first byte} */
    public int code() {
        return code;
    }

    /** {@return true if a client may send this type to a server} */
    public boolean toServer() {
        return toServer;
    }

    /** {@return true if a server may send this type to a client} */
    public boolean toClient() {
        return toClient;
    }

    int fixedFlags() {
        return fixedFlags;
    }

    /**
     * {@return the type of a code, or null for 0 (reserved)}
     *
     * @param code the high nibble, 0 to 15
     */
    public static MqttPacketType ofCode(int code) {
        return BY_CODE[code & 0x0f];
    }
}
