package io.rill.handler.codec.mqtt;

import static io.rill.handler.codec.mqtt.MqttWire.malformed;
import static io.rill.handler.codec.mqtt.MqttWire.protocolError;
import static io.rill.handler.codec.mqtt.MqttWire.readBinary;
import static io.rill.handler.codec.mqtt.MqttWire.readString;
import static io.rill.handler.codec.mqtt.MqttWire.readUnsignedByte;
import static io.rill.handler.codec.mqtt.MqttWire.readUnsignedShort;
import static io.rill.handler.codec.mqtt.MqttWire.readVariableByte;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.rill.buffer.ByteBuf;

/**
 * Reads the body of one packet, the bytes after its fixed header, already all received. One method
 * per packet type, each following its section of the specification; every length is checked
 * against the body's end, and the body must be used up exactly.
 */
final class MqttPacketReader {

    /** The place of the will properties in {@link MqttPropertyId}'s allowed-places mask. */
    private static final int PLACE_WILL = MqttPropertyId.WILL_PLACE;

    private final MqttVersion version;
    private final int maxListEntries;
    /** Where strings are copied on their way to a String; this reader's alone, as the codec is its channel's. */
    private final byte[] scratch = new byte[256];

    /**
     * @param version the version the connection speaks
     * @param maxListEntries the most properties, topic filters or reason codes one packet may carry
     */
    MqttPacketReader(MqttVersion version, int maxListEntries) {
        this.version = version;
        this.maxListEntries = maxListEntries;
    }

    /** Reads {@code body}, the whole body of a packet of {@code type} whose fixed header had {@code flags}. */
    MqttMessage read(MqttPacketType type, int flags, ByteBuf body) {
        MqttMessage message = switch (type) {
            case CONNECT -> connect(body);
            case CONNACK -> connAck(body);
            case PUBLISH -> publish(flags, body);
            case PUBACK, PUBREC, PUBREL, PUBCOMP -> pubAck(type, body);
            case SUBSCRIBE -> subscribe(body);
            case SUBACK -> subAck(body);
            case UNSUBSCRIBE -> unsubscribe(body);
            case UNSUBACK -> unsubAck(body);
            case PINGREQ -> MqttPing.REQUEST;
            case PINGRESP -> MqttPing.RESPONSE;
            case DISCONNECT -> disconnect(body);
            case AUTH -> auth(body);
        };
        if (body.isReadable()) {
            if (message instanceof MqttPublish publish) {
                publish.release();
            }
            throw malformed(type + " has " + body.readableBytes() + " bytes after its end");
        }
        return message;
    }

    /** Reads a CONNECT's protocol name and level; the decoder picks its version from them. */
    static MqttVersion readVersion(ByteBuf body) {
        String name = readString(body, "protocol name");
        int level = readUnsignedByte(body, "protocol level");
        MqttVersion version = MqttVersion.ofLevel(level);
        if (!"MQTT".equals(name) || version == null) {
            throw new MqttUnsupportedVersionException("protocol '" + name + "' level " + level + " is not MQTT 3.1.1 or 5.0");
        }
        return version;
    }

    /** MQTT 5.0 section 3.1; the protocol name and level were read by {@link #readVersion}. */
    private MqttConnect connect(ByteBuf body) {
        int flags = readUnsignedByte(body, "connect flags");
        if ((flags & 0x01) != 0) {
            throw malformed("CONNECT's reserved flag is set (section 3.1.2.3)");
        }
        boolean willFlag = (flags & 0x04) != 0;
        int willQos = (flags >> 3) & 0x03;
        boolean willRetain = (flags & 0x20) != 0;
        boolean hasPassword = (flags & 0x40) != 0;
        boolean hasUsername = (flags & 0x80) != 0;
        if (willQos == 3) {
            throw malformed("CONNECT's will QoS is 3");
        }
        if (!willFlag && (willQos != 0 || willRetain)) {
            throw malformed("CONNECT without a will sets will QoS or will retain");
        }
        if (!version.isV5() && hasPassword && !hasUsername) {
            throw malformed("MQTT 3.1.1 CONNECT has a password without a user name (section 3.1.2.9)");
        }
        int keepAlive = readUnsignedShort(body, "keep alive");
        MqttProperties properties = properties(body, MqttPacketType.CONNECT.code());
        String clientId = readString(body, "client identifier", scratch);
        MqttWill will = null;
        if (willFlag) {
            MqttProperties willProperties = properties(body, PLACE_WILL);
            String topic = readString(body, "will topic", scratch);
            checkName(topic);
            will = new MqttWill(topic, readBinary(body, "will payload"), willQos, willRetain, willProperties);
        }
        String username = hasUsername ? readString(body, "user name", scratch) : null;
        byte[] password = hasPassword ? readBinary(body, "password") : null;
        return new MqttConnect(version, clientId, (flags & 0x02) != 0, keepAlive, properties, will, username, password);
    }

    private MqttConnAck connAck(ByteBuf body) {
        int ackFlags = readUnsignedByte(body, "connect acknowledge flags");
        if ((ackFlags & 0xfe) != 0) {
            throw malformed("CONNACK's reserved flags are set: 0x" + Integer.toHexString(ackFlags));
        }
        int code = reasonCode(MqttPacketType.CONNACK, body);
        boolean sessionPresent = ackFlags == 1;
        if (sessionPresent && code != 0) {
            throw protocolError("CONNACK refuses the connection (0x" + Integer.toHexString(code) + ") with session present");
        }
        return new MqttConnAck(sessionPresent, code, properties(body, MqttPacketType.CONNACK.code()));
    }

    private MqttPublish publish(int flags, ByteBuf body) {
        int qos = (flags >> 1) & 0x03;
        boolean dup = (flags & 0x08) != 0;
        if (qos == 3) {
            throw malformed("PUBLISH with QoS 3 (section 3.3.1.2)");
        }
        if (qos == 0 && dup) {
            throw malformed("QoS 0 PUBLISH with the DUP flag (section 3.3.1.1)");
        }
        String topic = readString(body, "topic name", scratch);
        int packetId = qos > 0 ? packetId(body) : 0;
        MqttProperties properties = properties(body, MqttPacketType.PUBLISH.code());
        if (topic.isEmpty() && properties.get(MqttPropertyId.TOPIC_ALIAS) != null) {
            // An alias stands for the topic (5.0 section 3.3.2.3.4); the receiver resolves it.
        } else {
            checkName(topic);
        }
        ByteBuf payload = body.readRetainedSlice(body.readableBytes());
        return new MqttPublish(topic, qos, (flags & 0x01) != 0, dup, packetId, properties, payload);
    }

    /** Sections 3.4 to 3.7: 3.1.1 has the packet identifier alone; 5.0 may omit a 0 reason code and empty properties. */
    private MqttPubAck pubAck(MqttPacketType type, ByteBuf body) {
        int packetId = packetId(body);
        if (!version.isV5() || !body.isReadable()) {
            return new MqttPubAck(type, packetId);
        }
        int code = reasonCode(type, body);
        MqttProperties properties = body.isReadable() ? properties(body, type.code()) : MqttProperties.NONE;
        return new MqttPubAck(type, packetId, code, properties);
    }

    private MqttSubscribe subscribe(ByteBuf body) {
        int packetId = packetId(body);
        MqttProperties properties = properties(body, MqttPacketType.SUBSCRIBE.code());
        List<MqttSubscription> subscriptions = new ArrayList<>();
        do {
            String filter = readString(body, "topic filter", scratch);
            String problem = MqttTopics.checkFilter(filter);
            if (problem != null) {
                throw new MqttDecoderException(MqttReasonCode.MALFORMED_PACKET, problem);
            }
            int options = readUnsignedByte(body, "subscription options");
            int reserved = version.isV5() ? options & 0xc0 : options & 0xfc;
            int qos = options & 0x03;
            int retainHandling = (options >> 4) & 0x03;
            if (reserved != 0 || qos == 3 || retainHandling == 3) {
                throw malformed("subscription options 0x" + Integer.toHexString(options) + " for '" + filter + "'");
            }
            boolean noLocal = (options & 0x04) != 0;
            if (noLocal && MqttTopics.isShared(filter)) {
                throw protocolError("No Local on the shared subscription '" + filter + "' (section 3.8.3.1)");
            }
            subscriptions.add(new MqttSubscription(filter, qos, noLocal, (options & 0x08) != 0, retainHandling));
            checkCount(subscriptions.size(), "topic filters");
        } while (body.isReadable());
        return new MqttSubscribe(packetId, subscriptions, properties);
    }

    private MqttSubAck subAck(ByteBuf body) {
        int packetId = packetId(body);
        MqttProperties properties = properties(body, MqttPacketType.SUBACK.code());
        List<Integer> codes = reasonCodes(MqttPacketType.SUBACK, body);
        if (codes.isEmpty()) {
            throw protocolError("SUBACK without a reason code");
        }
        return new MqttSubAck(packetId, codes, properties);
    }

    private MqttUnsubscribe unsubscribe(ByteBuf body) {
        int packetId = packetId(body);
        MqttProperties properties = properties(body, MqttPacketType.UNSUBSCRIBE.code());
        List<String> filters = new ArrayList<>();
        do {
            String filter = readString(body, "topic filter", scratch);
            String problem = MqttTopics.checkFilter(filter);
            if (problem != null) {
                throw malformed(problem);
            }
            filters.add(filter);
            checkCount(filters.size(), "topic filters");
        } while (body.isReadable());
        return new MqttUnsubscribe(packetId, filters, properties);
    }

    private MqttUnsubAck unsubAck(ByteBuf body) {
        int packetId = packetId(body);
        if (!version.isV5()) {
            return new MqttUnsubAck(packetId, List.of(), MqttProperties.NONE);
        }
        MqttProperties properties = properties(body, MqttPacketType.UNSUBACK.code());
        List<Integer> codes = reasonCodes(MqttPacketType.UNSUBACK, body);
        if (codes.isEmpty()) {
            throw protocolError("UNSUBACK without a reason code");
        }
        return new MqttUnsubAck(packetId, codes, properties);
    }

    private MqttDisconnect disconnect(ByteBuf body) {
        if (!version.isV5() || !body.isReadable()) {
            return MqttDisconnect.NORMAL;
        }
        int code = reasonCode(MqttPacketType.DISCONNECT, body);
        MqttProperties properties = body.isReadable() ? properties(body, MqttPacketType.DISCONNECT.code()) : MqttProperties.NONE;
        return new MqttDisconnect(code, properties);
    }

    private MqttAuth auth(ByteBuf body) {
        if (!body.isReadable()) {
            return new MqttAuth(MqttReasonCode.SUCCESS, MqttProperties.NONE);
        }
        int code = reasonCode(MqttPacketType.AUTH, body);
        return new MqttAuth(code, properties(body, MqttPacketType.AUTH.code()));
    }

    private int packetId(ByteBuf body) {
        int packetId = readUnsignedShort(body, "packet identifier");
        if (packetId == 0) {
            throw malformed("packet identifier 0 (section 2.2.1)");
        }
        return packetId;
    }

    private int reasonCode(MqttPacketType type, ByteBuf body) {
        int code = readUnsignedByte(body, type + " reason code");
        if (!MqttReasonCode.isValidFor(type, code, version)) {
            throw malformed(type + " cannot carry reason code 0x" + Integer.toHexString(code));
        }
        return code;
    }

    private List<Integer> reasonCodes(MqttPacketType type, ByteBuf body) {
        List<Integer> codes = new ArrayList<>();
        while (body.isReadable()) {
            codes.add(reasonCode(type, body));
            checkCount(codes.size(), "reason codes");
        }
        return codes;
    }

    /**
     * Reads MQTT 5 properties (section 2.2.2) for the packet of type code {@code place}, or the will
     * properties for {@link #PLACE_WILL}; 3.1.1 has none. Refuses an unknown identifier, one its
     * place may not carry, a repeat of one that may not repeat, and a value out of its range.
     */
    private MqttProperties properties(ByteBuf body, int place) {
        if (!version.isV5()) {
            return MqttProperties.NONE;
        }
        int length = readVariableByte(body, "property length");
        if (length > body.readableBytes()) {
            throw malformed("properties of " + length + " bytes run past the end of the packet");
        }
        if (length == 0) {
            return MqttProperties.NONE;
        }
        int end = body.readerIndex() + length;
        // Two parallel arrays grown by doubling: packets carry few properties, and MqttProperties keeps arrays.
        MqttPropertyId[] ids = new MqttPropertyId[4];
        Object[] values = new Object[4];
        int count = 0;
        // Values are read from the body itself, not a slice of it: one that runs past the
        // properties' end is caught below, and reads never pass the body's end.
        while (body.readerIndex() < end) {
            int code = readVariableByte(body, "property identifier");
            MqttPropertyId id = MqttPropertyId.of(code);
            if (id == null) {
                throw malformed("unknown property identifier 0x" + Integer.toHexString(code) + " in " + placeName(place));
            }
            if (!id.allowedAt(place)) {
                throw protocolError(id + " is not allowed in " + placeName(place));
            }
            if (!id.repeatable() && contains(ids, count, id)) {
                throw protocolError(id + " appears twice in " + placeName(place));
            }
            checkCount(count + 1, "properties");
            if (count == ids.length) {
                ids = Arrays.copyOf(ids, count * 2);
                values = Arrays.copyOf(values, count * 2);
            }
            ids[count] = id;
            values[count++] = value(id, body);
        }
        if (body.readerIndex() != end) {
            throw malformed("a property runs past the end of the properties");
        }
        return MqttProperties.of(ids, values, count);
    }

    private static String placeName(int place) {
        return place == PLACE_WILL ? "will properties" : MqttPacketType.ofCode(place).toString();
    }

    private static boolean contains(MqttPropertyId[] ids, int count, MqttPropertyId id) {
        for (int i = 0; i < count; i++) {
            if (ids[i] == id) {
                return true;
            }
        }
        return false;
    }

    private Object value(MqttPropertyId id, ByteBuf in) {
        String what = id.toString();
        return switch (id.type()) {
            case BYTE -> {
                int v = readUnsignedByte(in, what);
                if (v > 1) {
                    throw protocolError(id + " must be 0 or 1: " + v);
                }
                yield v;
            }
            case TWO_BYTE -> atLeast(id, readUnsignedShort(in, what));
            case FOUR_BYTE -> {
                if (in.readableBytes() < 4) {
                    throw malformed(what + " runs past the end of the properties");
                }
                long v = in.readUnsignedInt();
                if (v < id.minimum()) {
                    throw protocolError(id + " must not be " + v);
                }
                yield v;
            }
            case VARIABLE_BYTE -> atLeast(id, readVariableByte(in, what));
            case STRING -> {
                String text = readString(in, what, scratch);
                if (id == MqttPropertyId.RESPONSE_TOPIC) {
                    checkName(text);
                }
                yield text;
            }
            case BINARY -> readBinary(in, what);
            case STRING_PAIR -> new MqttUserProperty(readString(in, "user property name", scratch),
                    readString(in, "user property value", scratch));
        };
    }

    private static int atLeast(MqttPropertyId id, int v) {
        if (v < id.minimum()) {
            throw protocolError(id + " must not be " + v);
        }
        return v;
    }

    private static void checkName(String topic) {
        String problem = MqttTopics.checkName(topic);
        if (problem != null) {
            throw new MqttDecoderException(MqttReasonCode.TOPIC_NAME_INVALID, problem);
        }
    }

    private void checkCount(int count, String what) {
        if (count > maxListEntries) {
            throw new MqttDecoderException(MqttReasonCode.MALFORMED_PACKET,
                    "more than maxListEntries " + maxListEntries + " " + what + " in one packet");
        }
    }
}
