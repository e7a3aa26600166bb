package io.rill.handler.codec.mqtt;

import static io.rill.handler.codec.mqtt.MqttDecodeRun.concat;
import static io.rill.handler.codec.mqtt.MqttDecodeRun.connectBytes;
import static io.rill.handler.codec.mqtt.MqttDecodeRun.encode;
import static io.rill.handler.codec.mqtt.MqttDecodeRun.everyWay;
import static io.rill.handler.codec.mqtt.MqttDecodeRun.hex;
import static io.rill.handler.codec.mqtt.MqttVersion.V3_1_1;
import static io.rill.handler.codec.mqtt.MqttVersion.V5;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.EncoderException;

class MqttCodecTest {

    private static MqttConnect minimalConnect(MqttVersion version) {
        return new MqttConnect(version, "c", true, 60, MqttProperties.NONE);
    }

    /** Encodes as a client, decodes every way as a server (after a CONNECT unless it is one), expects it back. */
    private static void toServer(MqttMessage message, MqttVersion version) {
        String text = message.toString(); // before encoding, which releases a PUBLISH
        byte[] wire = encode(message, version, false);
        boolean connect = message instanceof MqttConnect;
        List<String> expected = new ArrayList<>();
        if (!connect) {
            expected.add(minimalConnect(version).toString());
        }
        expected.add(text);
        MqttDecodeRun.Result result = everyWay(connect ? wire : concat(connectBytes(version), wire), MqttCodec::server);
        assertTrue(result.errors().isEmpty(), () -> "errors: " + result.errors());
        assertEquals(expected, result.messages());
    }

    /** Encodes as a server, decodes every way as a client of {@code version}, expects it back. */
    private static void toClient(MqttMessage message, MqttVersion version) {
        String text = message.toString();
        byte[] wire = encode(message, version, true);
        MqttDecodeRun.Result result = everyWay(wire, () -> MqttCodec.client(version));
        assertTrue(result.errors().isEmpty(), () -> "errors: " + result.errors());
        assertEquals(List.of(text), result.messages());
    }

    private static MqttPublish publish(String topic, int qos, int packetId, MqttProperties properties, String payload) {
        return new MqttPublish(topic, qos, false, false, packetId, properties,
                Unpooled.copiedBuffer(payload, StandardCharsets.UTF_8));
    }

    @Test
    void knownBytesOfConnectAndPublish() {
        assertArrayEquals(connectBytes(V3_1_1), encode(minimalConnect(V3_1_1), V3_1_1, false));
        assertArrayEquals(connectBytes(V5), encode(minimalConnect(V5), V5, false));
        assertArrayEquals(hex("32 09 0003 612f62 0001 6869"), encode(publish("a/b", 1, 1, MqttProperties.NONE, "hi"), V3_1_1, false));
        MqttProperties expiry = MqttProperties.builder().add(MqttPropertyId.MESSAGE_EXPIRY_INTERVAL, 60L).build();
        assertArrayEquals(hex("32 0f 0003 612f62 0001 05 02 0000003c 6869"), encode(publish("a/b", 1, 1, expiry, "hi"), V5, false));
        assertArrayEquals(hex("e0 00"), encode(MqttDisconnect.NORMAL, V5, false));
        assertArrayEquals(hex("40 02 0007"), encode(new MqttPubAck(MqttPacketType.PUBACK, 7), V5, true));
    }

    @ParameterizedTest
    @EnumSource(MqttVersion.class)
    void everyClientPacketRoundTrips(MqttVersion version) {
        boolean v5 = version.isV5();
        MqttProperties willProperties = v5 ? MqttProperties.builder().add(MqttPropertyId.WILL_DELAY_INTERVAL, 5L)
                .add(MqttPropertyId.CONTENT_TYPE, "text/plain").build() : MqttProperties.NONE;
        MqttProperties connectProperties = v5 ? MqttProperties.builder().add(MqttPropertyId.SESSION_EXPIRY_INTERVAL, 0xffffffffL)
                .add(MqttPropertyId.RECEIVE_MAXIMUM, 10).add(MqttPropertyId.MAXIMUM_PACKET_SIZE, 65536L)
                .user("k", "v").user("k", "w").build() : MqttProperties.NONE;
        toServer(new MqttConnect(version, "client-\u00e9\ud83d\ude00", false, 0, connectProperties,
                new MqttWill("last/will", new byte[] {0, 1, 2}, 1, true, willProperties), "user", new byte[] {9, 8}), version);
        toServer(minimalConnect(version), version);
        toServer(new MqttConnect(version, "", true, 65535, MqttProperties.NONE, null, "u", null), version);
        MqttProperties publishProperties = v5 ? MqttProperties.builder().add(MqttPropertyId.PAYLOAD_FORMAT_INDICATOR, 1)
                .add(MqttPropertyId.RESPONSE_TOPIC, "reply/here").add(MqttPropertyId.CORRELATION_DATA, new byte[] {7})
                .add(MqttPropertyId.TOPIC_ALIAS, 3).build() : MqttProperties.NONE;
        toServer(publish("a/b", 0, 0, MqttProperties.NONE, ""), version);
        toServer(publish("sensors/t\u00e9", 1, 65535, publishProperties, "21.5"), version);
        toServer(new MqttPublish("x", 2, true, true, 9, MqttProperties.NONE, Unpooled.copiedBuffer(new byte[300])), version);
        for (MqttPacketType ack : List.of(MqttPacketType.PUBACK, MqttPacketType.PUBREC, MqttPacketType.PUBREL, MqttPacketType.PUBCOMP)) {
            toServer(new MqttPubAck(ack, 42), version);
        }
        MqttProperties subscribeProperties = v5 ? MqttProperties.builder().add(MqttPropertyId.SUBSCRIPTION_IDENTIFIER, 200_000)
                .build() : MqttProperties.NONE;
        toServer(new MqttSubscribe(3, List.of(new MqttSubscription("a/+/c", 1), new MqttSubscription("#", 0),
                v5 ? new MqttSubscription("$share/g/x/#", 2, false, true, 2) : new MqttSubscription("x/#", 2)),
                subscribeProperties), version);
        toServer(new MqttUnsubscribe(4, List.of("a/+/c", "#"), MqttProperties.NONE), version);
        toServer(MqttPing.REQUEST, version);
        toServer(MqttDisconnect.NORMAL, version);
    }

    @ParameterizedTest
    @EnumSource(MqttVersion.class)
    void everyServerPacketRoundTrips(MqttVersion version) {
        boolean v5 = version.isV5();
        MqttProperties connAckProperties = v5 ? MqttProperties.builder().add(MqttPropertyId.RECEIVE_MAXIMUM, 20)
                .add(MqttPropertyId.TOPIC_ALIAS_MAXIMUM, 10).add(MqttPropertyId.MAXIMUM_QOS, 1)
                .add(MqttPropertyId.RETAIN_AVAILABLE, 1).add(MqttPropertyId.ASSIGNED_CLIENT_IDENTIFIER, "auto-1")
                .add(MqttPropertyId.MAXIMUM_PACKET_SIZE, 262144L).build() : MqttProperties.NONE;
        toClient(new MqttConnAck(true, 0, connAckProperties), version);
        toClient(new MqttConnAck(false, v5 ? MqttReasonCode.NOT_AUTHORIZED : MqttReasonCode.V3_NOT_AUTHORIZED, MqttProperties.NONE),
                version);
        toClient(publish("a/b", 1, 5, v5 ? MqttProperties.builder().add(MqttPropertyId.SUBSCRIPTION_IDENTIFIER, 1)
                .add(MqttPropertyId.SUBSCRIPTION_IDENTIFIER, 2).build() : MqttProperties.NONE, "m"), version);
        toClient(new MqttPubAck(MqttPacketType.PUBACK, 1), version);
        toClient(new MqttSubAck(3, List.of(0, 1, 2, 0x80), MqttProperties.NONE), version);
        toClient(new MqttUnsubAck(4, v5 ? List.of(0, 0x11) : List.of(), MqttProperties.NONE), version);
        toClient(MqttPing.RESPONSE, version);
    }

    @Test
    void mqtt5ReasonCodesAndPropertiesOnAcknowledgements() {
        MqttProperties reason = MqttProperties.builder().add(MqttPropertyId.REASON_STRING, "nobody").user("a", "b").build();
        toServer(new MqttPubAck(MqttPacketType.PUBACK, 1, MqttReasonCode.NO_MATCHING_SUBSCRIBERS, MqttProperties.NONE), V5);
        toServer(new MqttPubAck(MqttPacketType.PUBREC, 1, MqttReasonCode.QUOTA_EXCEEDED, reason), V5);
        toServer(new MqttPubAck(MqttPacketType.PUBREL, 1, MqttReasonCode.PACKET_IDENTIFIER_NOT_FOUND, MqttProperties.NONE), V5);
        toServer(new MqttDisconnect(MqttReasonCode.DISCONNECT_WITH_WILL_MESSAGE, MqttProperties.NONE), V5);
        toServer(new MqttDisconnect(MqttReasonCode.NORMAL_DISCONNECTION,
                MqttProperties.builder().add(MqttPropertyId.SESSION_EXPIRY_INTERVAL, 0L).build()), V5);
        toServer(new MqttAuth(MqttReasonCode.CONTINUE_AUTHENTICATION, MqttProperties.builder()
                .add(MqttPropertyId.AUTHENTICATION_METHOD, "SCRAM").add(MqttPropertyId.AUTHENTICATION_DATA, new byte[] {1}).build()), V5);
        toClient(new MqttAuth(MqttReasonCode.SUCCESS, MqttProperties.NONE), V5);
        toClient(new MqttDisconnect(MqttReasonCode.SERVER_SHUTTING_DOWN, reason), V5);
        toClient(new MqttSubAck(3, List.of(MqttReasonCode.TOPIC_FILTER_INVALID), reason), V5);
    }

    @Test
    void serverLearnsTheVersionFromConnectAndAnswersInIt() {
        EmbeddedChannel channel = new EmbeddedChannel(MqttCodec.server());
        MqttCodec codec = channel.pipeline().get(MqttCodec.class);
        assertEquals(null, codec.version());
        channel.writeInbound(Unpooled.copiedBuffer(connectBytes(V5)));
        assertEquals(V5, ((MqttConnect) channel.readInbound()).version());
        assertEquals(V5, codec.version());
        channel.writeOutbound(new MqttConnAck(false, 0, MqttProperties.NONE));
        io.rill.buffer.ByteBuf out = channel.readOutbound();
        assertEquals("2003000000", io.rill.buffer.ByteBufUtil.hexDump(out), "MQTT 5 CONNACK with an empty property length");
        out.release();
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void encoderRefusesWhatAReceiverWouldRefuse() {
        assertThrows(EncoderException.class, () -> encode(publish("a/+", 0, 0, MqttProperties.NONE, ""), V3_1_1, false));
        assertThrows(EncoderException.class, () -> encode(new MqttSubscribe(1, List.of(new MqttSubscription("a#", 0)),
                MqttProperties.NONE), V3_1_1, false));
        assertThrows(EncoderException.class, () -> encode(new MqttConnAck(false, 0,
                MqttProperties.builder().add(MqttPropertyId.TOPIC_ALIAS, 1).build()), V5, true));
        assertThrows(EncoderException.class, () -> encode(new MqttPubAck(MqttPacketType.PUBACK, 1, 0x99 + 1, MqttProperties.NONE),
                V5, true));
        assertThrows(EncoderException.class, () -> encode(publish("a\u0000b", 0, 0, MqttProperties.NONE, ""), V5, false));
        assertThrows(EncoderException.class, () -> encode(publish("a\ud800b", 0, 0, MqttProperties.NONE, ""), V5, false));
        assertThrows(EncoderException.class, () -> encode(new MqttAuth(0, MqttProperties.NONE), V3_1_1, false));
        assertThrows(IllegalArgumentException.class, () -> MqttProperties.builder().add(MqttPropertyId.RECEIVE_MAXIMUM, 0));
        assertThrows(IllegalArgumentException.class, () -> MqttProperties.builder().add(MqttPropertyId.CONTENT_TYPE, "a")
                .add(MqttPropertyId.CONTENT_TYPE, "b"));
    }

    @Test
    void encoderHonoursThePeersMaximumPacketSize() {
        EmbeddedChannel channel = new EmbeddedChannel(MqttCodec.client(V5));
        channel.writeInbound(Unpooled.copiedBuffer(encode(new MqttConnAck(false, 0, MqttProperties.builder()
                .add(MqttPropertyId.MAXIMUM_PACKET_SIZE, 20L).build()), V5, true)));
        channel.readInbound();
        MqttCodec codec = channel.pipeline().get(MqttCodec.class);
        assertEquals(20, codec.peerMaxPacketSize());
        MqttPublish big = publish("t", 0, 0, MqttProperties.NONE, "0123456789abcdef");
        assertEquals(22, codec.encodedSize(big));
        assertTrue(channel.writeAndFlush(big).cause() instanceof EncoderException);
        assertEquals(0, big.refCnt(), "the refused message is released");
        assertFalse(channel.finishAndReleaseAll());
    }
}
