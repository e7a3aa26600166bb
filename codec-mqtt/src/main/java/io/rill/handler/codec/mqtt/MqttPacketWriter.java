package io.rill.handler.codec.mqtt;

import static io.rill.handler.codec.mqtt.MqttWire.stringSize;
import static io.rill.handler.codec.mqtt.MqttWire.variableByteSize;
import static io.rill.handler.codec.mqtt.MqttWire.writeBinary;
import static io.rill.handler.codec.mqtt.MqttWire.writeString;
import static io.rill.handler.codec.mqtt.MqttWire.writeVariableByte;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.handler.codec.EncoderException;

/**
 * Writes packets. Each packet is measured first ({@link #bodySize}), so the remaining length is
 * known before a byte is written and the body goes out in one pass. Refuses what a receiver would
 * refuse: a topic name with a wildcard, a property its packet may not carry, a reason code its
 * packet may not carry, a packet larger than the peer allows.
 */
final class MqttPacketWriter {

    private MqttPacketWriter() {
    }

    /**
     * {@return the whole encoded size of {@code message}, fixed header included}
     *
     * @throws EncoderException if the message cannot be encoded in {@code version}
     */
    static int encodedSize(MqttMessage message, MqttVersion version) {
        int body = bodySize(message, version);
        return 1 + variableByteSize(body) + body;
    }

    /** Writes {@code message} into {@code out}; {@code bodySize} is {@link #bodySize}'s answer for it. */
    static void write(MqttMessage message, MqttVersion version, int bodySize, ByteBuf out) {
        out.writeByte(message.type().code() << 4 | flags(message));
        writeVariableByte(out, bodySize);
        boolean v5 = version.isV5();
        if (message instanceof MqttConnect c) {
            writeString(out, "MQTT");
            out.writeByte(c.version().level());
            MqttWill will = c.will();
            int flags = (c.cleanStart() ? 0x02 : 0) | (c.username() != null ? 0x80 : 0) | (c.password() != null ? 0x40 : 0);
            if (will != null) {
                flags |= 0x04 | will.qos() << 3 | (will.retain() ? 0x20 : 0);
            }
            out.writeByte(flags);
            out.writeShort(c.keepAliveSeconds());
            writeProperties(out, c.properties(), v5);
            writeString(out, c.clientId());
            if (will != null) {
                writeProperties(out, will.properties(), v5);
                writeString(out, will.topic());
                writeBinary(out, will.payload());
            }
            if (c.username() != null) {
                writeString(out, c.username());
            }
            if (c.password() != null) {
                writeBinary(out, c.password());
            }
        } else if (message instanceof MqttConnAck a) {
            out.writeByte(a.sessionPresent() ? 1 : 0);
            out.writeByte(a.reasonCode());
            writeProperties(out, a.properties(), v5);
        } else if (message instanceof MqttPublish p) {
            writeString(out, p.topic());
            if (p.qos() > 0) {
                out.writeShort(p.packetId());
            }
            writeProperties(out, p.properties(), v5);
            out.writeBytes(p.content(), p.content().readerIndex(), p.content().readableBytes());
        } else if (message instanceof MqttPubAck a) {
            out.writeShort(a.packetId());
            if (v5 && (a.reasonCode() != 0 || !a.properties().isEmpty())) {
                out.writeByte(a.reasonCode());
                if (!a.properties().isEmpty()) {
                    writeProperties(out, a.properties(), true);
                }
            }
        } else if (message instanceof MqttSubscribe s) {
            out.writeShort(s.packetId());
            writeProperties(out, s.properties(), v5);
            for (MqttSubscription sub : s.subscriptions()) {
                writeString(out, sub.filter());
                int options = sub.qos();
                if (v5) {
                    options |= (sub.noLocal() ? 0x04 : 0) | (sub.retainAsPublished() ? 0x08 : 0) | sub.retainHandling() << 4;
                }
                out.writeByte(options);
            }
        } else if (message instanceof MqttSubAck a) {
            out.writeShort(a.packetId());
            writeProperties(out, a.properties(), v5);
            a.reasonCodes().forEach(out::writeByte);
        } else if (message instanceof MqttUnsubscribe u) {
            out.writeShort(u.packetId());
            writeProperties(out, u.properties(), v5);
            u.filters().forEach(f -> writeString(out, f));
        } else if (message instanceof MqttUnsubAck a) {
            out.writeShort(a.packetId());
            if (v5) {
                writeProperties(out, a.properties(), true);
                a.reasonCodes().forEach(out::writeByte);
            }
        } else if (message instanceof MqttDisconnect d) {
            if (v5 && (d.reasonCode() != 0 || !d.properties().isEmpty())) {
                out.writeByte(d.reasonCode());
                writeProperties(out, d.properties(), true);
            }
        } else if (message instanceof MqttAuth a) {
            if (a.reasonCode() != 0 || !a.properties().isEmpty()) {
                out.writeByte(a.reasonCode());
                writeProperties(out, a.properties(), true);
            }
        }
    }

    private static int flags(MqttMessage message) {
        if (message instanceof MqttPublish p) {
            return (p.dup() ? 0x08 : 0) | p.qos() << 1 | (p.retained() ? 0x01 : 0);
        }
        return message.type().fixedFlags();
    }

    /** Measures the body and checks everything {@link #write} relies on. */
    static int bodySize(MqttMessage message, MqttVersion version) {
        long size = measure(message, version);
        if (size > MqttWire.MAX_VARIABLE_BYTE) {
            throw new EncoderException(message.type() + " of " + size + " bytes is larger than MQTT allows");
        }
        return (int) size;
    }

    private static long measure(MqttMessage message, MqttVersion version) {
        boolean v5 = version.isV5();
        if (message instanceof MqttConnect c) {
            if (c.version() != version) {
                throw new EncoderException("CONNECT for " + c.version() + " on a " + version + " codec");
            }
            if (!v5 && c.password() != null && c.username() == null) {
                throw new EncoderException("MQTT 3.1.1 CONNECT with a password needs a user name");
            }
            long s = 6 + 1 + 1 + 2 + propertiesSize(c.properties(), MqttPacketType.CONNECT.code(), v5)
                    + stringSize(c.clientId(), "client identifier");
            MqttWill will = c.will();
            if (will != null) {
                checkName(will.topic());
                s += propertiesSize(will.properties(), MqttPropertyId.WILL_PLACE, v5) + stringSize(will.topic(), "will topic")
                        + binarySize(will.payload(), "will payload");
            }
            if (c.username() != null) {
                s += stringSize(c.username(), "user name");
            }
            if (c.password() != null) {
                s += binarySize(c.password(), "password");
            }
            return s;
        }
        if (message instanceof MqttConnAck a) {
            checkReason(MqttPacketType.CONNACK, a.reasonCode(), version);
            return 2 + propertiesSize(a.properties(), MqttPacketType.CONNACK.code(), v5);
        }
        if (message instanceof MqttPublish p) {
            if (!(v5 && p.topic().isEmpty() && p.properties().get(MqttPropertyId.TOPIC_ALIAS) != null)) {
                checkName(p.topic());
            }
            return stringSize(p.topic(), "topic name") + (p.qos() > 0 ? 2 : 0)
                    + propertiesSize(p.properties(), MqttPacketType.PUBLISH.code(), v5) + p.content().readableBytes();
        }
        if (message instanceof MqttPubAck a) {
            if (!v5) {
                return 2;
            }
            checkReason(a.type(), a.reasonCode(), version);
            if (a.reasonCode() == 0 && a.properties().isEmpty()) {
                return 2;
            }
            return 3 + (a.properties().isEmpty() ? 0 : propertiesSize(a.properties(), a.type().code(), true));
        }
        if (message instanceof MqttSubscribe s) {
            long n = 2 + propertiesSize(s.properties(), MqttPacketType.SUBSCRIBE.code(), v5);
            for (MqttSubscription sub : s.subscriptions()) {
                checkFilter(sub.filter());
                n += stringSize(sub.filter(), "topic filter") + 1;
            }
            return n;
        }
        if (message instanceof MqttSubAck a) {
            a.reasonCodes().forEach(code -> checkReason(MqttPacketType.SUBACK, code, version));
            return 2 + propertiesSize(a.properties(), MqttPacketType.SUBACK.code(), v5) + a.reasonCodes().size();
        }
        if (message instanceof MqttUnsubscribe u) {
            long n = 2 + propertiesSize(u.properties(), MqttPacketType.UNSUBSCRIBE.code(), v5);
            for (String filter : u.filters()) {
                checkFilter(filter);
                n += stringSize(filter, "topic filter");
            }
            return n;
        }
        if (message instanceof MqttUnsubAck a) {
            if (!v5) {
                return 2;
            }
            if (a.reasonCodes().isEmpty()) {
                throw new EncoderException("MQTT 5 UNSUBACK needs a reason code per filter");
            }
            a.reasonCodes().forEach(code -> checkReason(MqttPacketType.UNSUBACK, code, version));
            return 2 + propertiesSize(a.properties(), MqttPacketType.UNSUBACK.code(), true) + a.reasonCodes().size();
        }
        if (message instanceof MqttPing ping) {
            return 0;
        }
        if (message instanceof MqttDisconnect d) {
            if (!v5 || (d.reasonCode() == 0 && d.properties().isEmpty())) {
                return 0;
            }
            checkReason(MqttPacketType.DISCONNECT, d.reasonCode(), version);
            return 1 + propertiesSize(d.properties(), MqttPacketType.DISCONNECT.code(), true);
        }
        if (message instanceof MqttAuth a) {
            if (!v5) {
                throw new EncoderException("AUTH is MQTT 5 only");
            }
            checkReason(MqttPacketType.AUTH, a.reasonCode(), version);
            return a.reasonCode() == 0 && a.properties().isEmpty() ? 0
                    : 1 + propertiesSize(a.properties(), MqttPacketType.AUTH.code(), true);
        }
        throw new EncoderException("not an MQTT packet: " + message);
    }

    private static int binarySize(byte[] bytes, String what) {
        if (bytes.length > 0xffff) {
            throw new EncoderException(what + " is " + bytes.length + " bytes, more than 65535");
        }
        return 2 + bytes.length;
    }

    /** The properties' size with their length prefix; 0 in 3.1.1, which has none to write. */
    private static long propertiesSize(MqttProperties properties, int place, boolean v5) {
        if (!v5) {
            return 0;
        }
        int length = propertiesLength(properties, place);
        return variableByteSize(length) + length;
    }

    private static int propertiesLength(MqttProperties properties, int place) {
        long length = 0;
        for (int i = 0; i < properties.size(); i++) {
            MqttPropertyId id = properties.idAt(i);
            if (!id.allowedAt(place)) {
                throw new EncoderException(id + " is not allowed in "
                        + (place == MqttPropertyId.WILL_PLACE ? "will properties" : MqttPacketType.ofCode(place).toString()));
            }
            Object value = properties.valueAt(i);
            length += 1 + switch (id.type()) {
                case BYTE -> 1;
                case TWO_BYTE -> 2;
                case FOUR_BYTE -> 4;
                case VARIABLE_BYTE -> variableByteSize((Integer) value);
                case STRING -> {
                    if (id == MqttPropertyId.RESPONSE_TOPIC) {
                        checkName((String) value);
                    }
                    yield stringSize((String) value, id.toString());
                }
                case BINARY -> binarySize((byte[]) value, id.toString());
                case STRING_PAIR -> stringSize(((MqttUserProperty) value).name(), "user property name")
                        + stringSize(((MqttUserProperty) value).value(), "user property value");
            };
        }
        if (length > MqttWire.MAX_VARIABLE_BYTE) {
            throw new EncoderException("properties of " + length + " bytes");
        }
        return (int) length;
    }

    private static void writeProperties(ByteBuf out, MqttProperties properties, boolean v5) {
        if (!v5) {
            return;
        }
        // Measured again rather than passed down: properties are few and small, and the sizes were checked.
        writeVariableByte(out, propertiesLengthUnchecked(properties));
        for (int i = 0; i < properties.size(); i++) {
            MqttPropertyId id = properties.idAt(i);
            Object value = properties.valueAt(i);
            out.writeByte(id.id());
            switch (id.type()) {
                case BYTE -> out.writeByte((Integer) value);
                case TWO_BYTE -> out.writeShort((Integer) value);
                case FOUR_BYTE -> out.writeInt((int) (long) (Long) value);
                case VARIABLE_BYTE -> writeVariableByte(out, (Integer) value);
                case STRING -> writeString(out, (String) value);
                case BINARY -> writeBinary(out, (byte[]) value);
                case STRING_PAIR -> {
                    writeString(out, ((MqttUserProperty) value).name());
                    writeString(out, ((MqttUserProperty) value).value());
                }
            }
        }
    }

    private static int propertiesLengthUnchecked(MqttProperties properties) {
        int length = 0;
        for (int i = 0; i < properties.size(); i++) {
            MqttPropertyId id = properties.idAt(i);
            Object value = properties.valueAt(i);
            length += 1 + switch (id.type()) {
                case BYTE -> 1;
                case TWO_BYTE -> 2;
                case FOUR_BYTE -> 4;
                case VARIABLE_BYTE -> variableByteSize((Integer) value);
                case STRING -> 2 + ByteBufUtil.utf8Bytes((String) value);
                case BINARY -> 2 + ((byte[]) value).length;
                case STRING_PAIR -> 4 + ByteBufUtil.utf8Bytes(((MqttUserProperty) value).name())
                        + ByteBufUtil.utf8Bytes(((MqttUserProperty) value).value());
            };
        }
        return length;
    }

    private static void checkReason(MqttPacketType type, int code, MqttVersion version) {
        if (!MqttReasonCode.isValidFor(type, code, version)) {
            throw new EncoderException(type + " cannot carry reason code 0x" + Integer.toHexString(code) + " in " + version);
        }
    }

    private static void checkName(String topic) {
        String problem = MqttTopics.checkName(topic);
        if (problem != null) {
            throw new EncoderException(problem);
        }
    }

    private static void checkFilter(String filter) {
        String problem = MqttTopics.checkFilter(filter);
        if (problem != null) {
            throw new EncoderException(problem);
        }
    }
}
