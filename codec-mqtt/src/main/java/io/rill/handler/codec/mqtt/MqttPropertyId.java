package io.rill.handler.codec.mqtt;

import static io.rill.handler.codec.mqtt.MqttPropertyId.Type.BINARY;
import static io.rill.handler.codec.mqtt.MqttPropertyId.Type.BYTE;
import static io.rill.handler.codec.mqtt.MqttPropertyId.Type.FOUR_BYTE;
import static io.rill.handler.codec.mqtt.MqttPropertyId.Type.STRING;
import static io.rill.handler.codec.mqtt.MqttPropertyId.Type.STRING_PAIR;
import static io.rill.handler.codec.mqtt.MqttPropertyId.Type.TWO_BYTE;
import static io.rill.handler.codec.mqtt.MqttPropertyId.Type.VARIABLE_BYTE;

/**
 * The MQTT 5.0 properties (section 2.2.2.2, table 2-4): identifier, value type and the packets that
 * may carry each. The will properties of a CONNECT are a place of their own ({@link #allowedInWill}).
 */
public enum MqttPropertyId {
    /** Payload format indicator, identifier 0x01, byte. */
    PAYLOAD_FORMAT_INDICATOR(0x01, BYTE, false, 0, true, 3),
    /** Message expiry interval, identifier 0x02, four-byte. */
    MESSAGE_EXPIRY_INTERVAL(0x02, FOUR_BYTE, false, 0, true, 3),
    /** Content type, identifier 0x03, string. */
    CONTENT_TYPE(0x03, STRING, false, 0, true, 3),
    /** Response topic, identifier 0x08, string. */
    RESPONSE_TOPIC(0x08, STRING, false, 0, true, 3),
    /** Correlation data, identifier 0x09, binary. */
    CORRELATION_DATA(0x09, BINARY, false, 0, true, 3),
    /** May repeat in PUBLISH, once per matching subscription (section 3.3.2.3.8). */
    SUBSCRIPTION_IDENTIFIER(0x0B, VARIABLE_BYTE, true, 1, false, 3, 8),
    /** Session expiry interval, identifier 0x11, four-byte. */
    SESSION_EXPIRY_INTERVAL(0x11, FOUR_BYTE, false, 0, false, 1, 2, 14),
    /** Assigned client identifier, identifier 0x12, string. */
    ASSIGNED_CLIENT_IDENTIFIER(0x12, STRING, false, 0, false, 2),
    /** Server keep alive, identifier 0x13, two-byte. */
    SERVER_KEEP_ALIVE(0x13, TWO_BYTE, false, 0, false, 2),
    /** Authentication method, identifier 0x15, string. */
    AUTHENTICATION_METHOD(0x15, STRING, false, 0, false, 1, 2, 15),
    /** Authentication data, identifier 0x16, binary. */
    AUTHENTICATION_DATA(0x16, BINARY, false, 0, false, 1, 2, 15),
    /** Request problem information, identifier 0x17, byte. */
    REQUEST_PROBLEM_INFORMATION(0x17, BYTE, false, 0, false, 1),
    /** Will delay interval, identifier 0x18, four-byte. */
    WILL_DELAY_INTERVAL(0x18, FOUR_BYTE, false, 0, true),
    /** Request response information, identifier 0x19, byte. */
    REQUEST_RESPONSE_INFORMATION(0x19, BYTE, false, 0, false, 1),
    /** Response information, identifier 0x1A, string. */
    RESPONSE_INFORMATION(0x1A, STRING, false, 0, false, 2),
    /** Server reference, identifier 0x1C, string. */
    SERVER_REFERENCE(0x1C, STRING, false, 0, false, 2, 14),
    /** Reason string, identifier 0x1F, string. */
    REASON_STRING(0x1F, STRING, false, 0, false, 2, 4, 5, 6, 7, 9, 11, 14, 15),
    /** Receive maximum, identifier 0x21, two-byte. */
    RECEIVE_MAXIMUM(0x21, TWO_BYTE, false, 1, false, 1, 2),
    /** Topic alias maximum, identifier 0x22, two-byte. */
    TOPIC_ALIAS_MAXIMUM(0x22, TWO_BYTE, false, 0, false, 1, 2),
    /** Topic alias, identifier 0x23, two-byte. */
    TOPIC_ALIAS(0x23, TWO_BYTE, false, 1, false, 3),
    /** Maximum qos, identifier 0x24, byte. */
    MAXIMUM_QOS(0x24, BYTE, false, 0, false, 2),
    /** Retain available, identifier 0x25, byte. */
    RETAIN_AVAILABLE(0x25, BYTE, false, 0, false, 2),
    /** The only property every packet with properties may carry, and repeat (section 3.1.2.11.8). */
    USER_PROPERTY(0x26, STRING_PAIR, true, 0, true, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 14, 15),
    /** Maximum packet size, identifier 0x27, four-byte. */
    MAXIMUM_PACKET_SIZE(0x27, FOUR_BYTE, false, 1, false, 1, 2),
    /** Wildcard subscription available, identifier 0x28, byte. */
    WILDCARD_SUBSCRIPTION_AVAILABLE(0x28, BYTE, false, 0, false, 2),
    /** Subscription identifier available, identifier 0x29, byte. */
    SUBSCRIPTION_IDENTIFIER_AVAILABLE(0x29, BYTE, false, 0, false, 2),
    /** Shared subscription available, identifier 0x2A, byte. */
    SHARED_SUBSCRIPTION_AVAILABLE(0x2A, BYTE, false, 0, false, 2);

    /** The wire types of property values (section 1.5). */
    public enum Type {
        /** One byte, an {@code Integer}. */
        BYTE,
        /** Two bytes big-endian, an {@code Integer}. */
        TWO_BYTE,
        /** Four bytes big-endian, a {@code Long} from 0 to 2<sup>32</sup>-1. */
        FOUR_BYTE,
        /** A variable byte integer, an {@code Integer}. */
        VARIABLE_BYTE,
        /** A UTF-8 string, a {@code String}. */
        STRING,
        /** Binary data, a {@code byte[]}. */
        BINARY,
        /** A UTF-8 string pair, an {@link MqttUserProperty}. */
        STRING_PAIR
    }

    /** The place of the will properties in the allowed-places mask: packet type code 0 is reserved, so free. */
    static final int WILL_PLACE = 0;

    private static final MqttPropertyId[] BY_ID = new MqttPropertyId[0x2B];

    static {
        for (MqttPropertyId id : values()) {
            BY_ID[id.id] = id;
        }
    }

    private final int id;
    private final Type type;
    private final boolean repeatable;
    /** The smallest value allowed: 1 where the specification calls zero a protocol error. */
    private final int minimum;
    /** Bit n set: packet type code n may carry this property; bit 0: the will properties. */
    private final int places;

    MqttPropertyId(int id, Type type, boolean repeatable, int minimum, boolean inWill, int... packetCodes) {
        this.id = id;
        this.type = type;
        this.repeatable = repeatable;
        this.minimum = minimum;
        int mask = inWill ? 1 : 0;
        for (int code : packetCodes) {
            mask |= 1 << code;
        }
        this.places = mask;
    }

    /** {@return the property identifier} */
    public int id() {
        return id;
    }

    /** {@return the value type} */
    public Type type() {
        return type;
    }

    /** {@return true if a packet may carry this property more than once} */
    public boolean repeatable() {
        return repeatable;
    }

    int minimum() {
        return minimum;
    }

    /**
     * {@return true if {@code packet} may carry this property}
     *
     * @param packet the packet type
     */
    public boolean allowedIn(MqttPacketType packet) {
        return (places & (1 << packet.code())) != 0;
    }

    /** {@return true if a CONNECT's will properties may carry this property} */
    public boolean allowedInWill() {
        return (places & 1) != 0;
    }

    boolean allowedAt(int place) {
        return (places & (1 << place)) != 0;
    }

    /**
     * {@return the property of an identifier, or null if there is none}
     *
     * @param id the identifier
     */
    public static MqttPropertyId of(int id) {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }
}
