package io.rill.handler.codec.mqtt;

/**
 * MQTT 5.0 reason codes (section 2.4) as {@code int}s, since one code has a different name on
 * different packets (0x00 is Success, Normal disconnection and Granted QoS 0), plus the MQTT 3.1.1
 * CONNACK return codes. {@link #isValidFor} says which codes each packet may carry.
 */
public final class MqttReasonCode {

    /** Success (0x00). */
    public static final int SUCCESS = 0x00;
    /** Normal disconnection (0x00). */
    public static final int NORMAL_DISCONNECTION = 0x00;
    /** Granted qos 0 (0x00). */
    public static final int GRANTED_QOS_0 = 0x00;
    /** Granted qos 1 (0x01). */
    public static final int GRANTED_QOS_1 = 0x01;
    /** Granted qos 2 (0x02). */
    public static final int GRANTED_QOS_2 = 0x02;
    /** Disconnect with will message (0x04). */
    public static final int DISCONNECT_WITH_WILL_MESSAGE = 0x04;
    /** No matching subscribers (0x10). */
    public static final int NO_MATCHING_SUBSCRIBERS = 0x10;
    /** No subscription existed (0x11). */
    public static final int NO_SUBSCRIPTION_EXISTED = 0x11;
    /** Continue authentication (0x18). */
    public static final int CONTINUE_AUTHENTICATION = 0x18;
    /** Re authenticate (0x19). */
    public static final int RE_AUTHENTICATE = 0x19;
    /** Unspecified error (0x80). */
    public static final int UNSPECIFIED_ERROR = 0x80;
    /** Malformed packet (0x81). */
    public static final int MALFORMED_PACKET = 0x81;
    /** Protocol error (0x82). */
    public static final int PROTOCOL_ERROR = 0x82;
    /** Implementation specific error (0x83). */
    public static final int IMPLEMENTATION_SPECIFIC_ERROR = 0x83;
    /** Unsupported protocol version (0x84). */
    public static final int UNSUPPORTED_PROTOCOL_VERSION = 0x84;
    /** Client identifier not valid (0x85). */
    public static final int CLIENT_IDENTIFIER_NOT_VALID = 0x85;
    /** Bad user name or password (0x86). */
    public static final int BAD_USER_NAME_OR_PASSWORD = 0x86;
    /** Not authorized (0x87). */
    public static final int NOT_AUTHORIZED = 0x87;
    /** Server unavailable (0x88). */
    public static final int SERVER_UNAVAILABLE = 0x88;
    /** Server busy (0x89). */
    public static final int SERVER_BUSY = 0x89;
    /** Banned (0x8A). */
    public static final int BANNED = 0x8A;
    /** Server shutting down (0x8B). */
    public static final int SERVER_SHUTTING_DOWN = 0x8B;
    /** Bad authentication method (0x8C). */
    public static final int BAD_AUTHENTICATION_METHOD = 0x8C;
    /** Keep alive timeout (0x8D). */
    public static final int KEEP_ALIVE_TIMEOUT = 0x8D;
    /** Session taken over (0x8E). */
    public static final int SESSION_TAKEN_OVER = 0x8E;
    /** Topic filter invalid (0x8F). */
    public static final int TOPIC_FILTER_INVALID = 0x8F;
    /** Topic name invalid (0x90). */
    public static final int TOPIC_NAME_INVALID = 0x90;
    /** Packet identifier in use (0x91). */
    public static final int PACKET_IDENTIFIER_IN_USE = 0x91;
    /** Packet identifier not found (0x92). */
    public static final int PACKET_IDENTIFIER_NOT_FOUND = 0x92;
    /** Receive maximum exceeded (0x93). */
    public static final int RECEIVE_MAXIMUM_EXCEEDED = 0x93;
    /** Topic alias invalid (0x94). */
    public static final int TOPIC_ALIAS_INVALID = 0x94;
    /** Packet too large (0x95). */
    public static final int PACKET_TOO_LARGE = 0x95;
    /** Message rate too high (0x96). */
    public static final int MESSAGE_RATE_TOO_HIGH = 0x96;
    /** Quota exceeded (0x97). */
    public static final int QUOTA_EXCEEDED = 0x97;
    /** Administrative action (0x98). */
    public static final int ADMINISTRATIVE_ACTION = 0x98;
    /** Payload format invalid (0x99). */
    public static final int PAYLOAD_FORMAT_INVALID = 0x99;
    /** Retain not supported (0x9A). */
    public static final int RETAIN_NOT_SUPPORTED = 0x9A;
    /** Qos not supported (0x9B). */
    public static final int QOS_NOT_SUPPORTED = 0x9B;
    /** Use another server (0x9C). */
    public static final int USE_ANOTHER_SERVER = 0x9C;
    /** Server moved (0x9D). */
    public static final int SERVER_MOVED = 0x9D;
    /** Shared subscriptions not supported (0x9E). */
    public static final int SHARED_SUBSCRIPTIONS_NOT_SUPPORTED = 0x9E;
    /** Connection rate exceeded (0x9F). */
    public static final int CONNECTION_RATE_EXCEEDED = 0x9F;
    /** Maximum connect time (0xA0). */
    public static final int MAXIMUM_CONNECT_TIME = 0xA0;
    /** Subscription identifiers not supported (0xA1). */
    public static final int SUBSCRIPTION_IDENTIFIERS_NOT_SUPPORTED = 0xA1;
    /** Wildcard subscriptions not supported (0xA2). */
    public static final int WILDCARD_SUBSCRIPTIONS_NOT_SUPPORTED = 0xA2;

    /** MQTT 3.1.1 CONNACK: the server does not speak the requested protocol level (section 3.2.2.3). */
    public static final int V3_UNACCEPTABLE_PROTOCOL_VERSION = 0x01;
    /** MQTT 3.1.1 CONNACK: the client identifier is not allowed. */
    public static final int V3_IDENTIFIER_REJECTED = 0x02;
    /** MQTT 3.1.1 CONNACK: the server is unavailable. */
    public static final int V3_SERVER_UNAVAILABLE = 0x03;
    /** MQTT 3.1.1 CONNACK: bad user name or password. */
    public static final int V3_BAD_USER_NAME_OR_PASSWORD = 0x04;
    /** MQTT 3.1.1 CONNACK: not authorized. */
    public static final int V3_NOT_AUTHORIZED = 0x05;

    private static final int[] CONNACK = {0x00, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8A,
        0x8C, 0x90, 0x95, 0x97, 0x99, 0x9A, 0x9B, 0x9C, 0x9D, 0x9F};
    private static final int[] PUBACK = {0x00, 0x10, 0x80, 0x83, 0x87, 0x90, 0x91, 0x97, 0x99};
    private static final int[] PUBREL = {0x00, 0x92};
    private static final int[] SUBACK = {0x00, 0x01, 0x02, 0x80, 0x83, 0x87, 0x8F, 0x91, 0x97, 0x9E, 0xA1, 0xA2};
    private static final int[] UNSUBACK = {0x00, 0x11, 0x80, 0x83, 0x87, 0x8F, 0x91};
    private static final int[] DISCONNECT = {0x00, 0x04, 0x80, 0x81, 0x82, 0x83, 0x87, 0x89, 0x8B, 0x8D, 0x8E, 0x8F,
        0x90, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0x9B, 0x9C, 0x9D, 0x9E, 0x9F, 0xA0, 0xA1, 0xA2};
    private static final int[] AUTH = {0x00, 0x18, 0x19};

    private MqttReasonCode() {
    }

    /**
     * {@return true if {@code packet} may carry reason code {@code code} in {@code version}}
     * (MQTT 5.0 sections 3.2.2.2, 3.4.2.1 to 3.7.2.1, 3.9.3, 3.11.3, 3.14.2.1, 3.15.2.1; MQTT 3.1.1
     * sections 3.2.2.3 and 3.9.3). Packets without a reason code accept none.
     *
     * @param packet the packet type
     * @param code the reason code
     * @param version the protocol version
     */
    public static boolean isValidFor(MqttPacketType packet, int code, MqttVersion version) {
        if (!version.isV5()) {
            return switch (packet) {
                case CONNACK -> code >= 0 && code <= 5;
                case SUBACK -> code == 0 || code == 1 || code == 2 || code == 0x80;
                default -> false;
            };
        }
        int[] valid = switch (packet) {
            case CONNACK -> CONNACK;
            case PUBACK, PUBREC -> PUBACK;
            case PUBREL, PUBCOMP -> PUBREL;
            case SUBACK -> SUBACK;
            case UNSUBACK -> UNSUBACK;
            case DISCONNECT -> DISCONNECT;
            case AUTH -> AUTH;
            default -> new int[0];
        };
        for (int v : valid) {
            if (v == code) {
                return true;
            }
        }
        return false;
    }
}
