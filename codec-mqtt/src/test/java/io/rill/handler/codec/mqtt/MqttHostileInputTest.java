package io.rill.handler.codec.mqtt;

import static io.rill.handler.codec.mqtt.MqttDecodeRun.concat;
import static io.rill.handler.codec.mqtt.MqttDecodeRun.connectBytes;
import static io.rill.handler.codec.mqtt.MqttDecodeRun.everyWay;
import static io.rill.handler.codec.mqtt.MqttDecodeRun.hex;
import static io.rill.handler.codec.mqtt.MqttVersion.V3_1_1;
import static io.rill.handler.codec.mqtt.MqttVersion.V5;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;

/** Malformed and hostile input; each test names its case in docs/security-cases.md. */
class MqttHostileInputTest {

    private static final Supplier<MqttCodec> SERVER = MqttCodec::server;

    /** Feeds {@code packet} to a server after a CONNECT of {@code version}; expects the CONNECT, then one error. */
    private static MqttDecoderException refusedAfterConnect(MqttVersion version, String packet) {
        MqttDecodeRun.Result result = everyWay(concat(connectBytes(version), hex(packet)), SERVER);
        assertEquals(1, result.messages().size(), () -> "only the CONNECT decodes: " + result.messages());
        return assertInstanceOf(MqttDecoderException.class, result.onlyError());
    }

    private static MqttDecoderException refused(String bytes, Supplier<MqttCodec> codec) {
        MqttDecodeRun.Result result = everyWay(hex(bytes), codec);
        assertTrue(result.messages().isEmpty(), () -> "decoded: " + result.messages());
        return assertInstanceOf(MqttDecoderException.class, result.onlyError());
    }

    @Test
    void mqtt_01_oversizedPacketIsRefusedFromItsFixedHeaderBeforeTheBodyArrives() {
        EmbeddedChannel channel = new EmbeddedChannel(MqttCodec.server(1024, 16));
        ByteBuf header = Unpooled.copiedBuffer(hex("10 ff ff 3f")); // CONNECT announcing 1 MiB
        MqttPacketTooLargeException e = assertThrows(MqttPacketTooLargeException.class, () -> channel.writeInbound(header));
        assertEquals(MqttReasonCode.PACKET_TOO_LARGE, e.reasonCode());
        assertEquals(0, header.refCnt());
        // The megabyte that follows is dropped as it arrives, never cumulated.
        ByteBuf rest = Unpooled.copiedBuffer(new byte[64 * 1024]);
        channel.writeInbound(rest);
        assertEquals(0, rest.refCnt());
        assertFalse(channel.finishAndReleaseAll());
        assertInstanceOf(MqttPacketTooLargeException.class, refused("10 81 08", () -> MqttCodec.server(1024, 16)));
        // A packet of exactly the limit decodes: 1 + 2 header bytes and 1021 of body.
        byte[] atLimit = concat(connectBytes(V3_1_1), hex("30 fd 07 0001 61"), new byte[1018]);
        EmbeddedChannel exact = new EmbeddedChannel(MqttCodec.server(1024, 16));
        exact.writeInbound(Unpooled.copiedBuffer(atLimit));
        assertInstanceOf(MqttConnect.class, exact.readInbound());
        MqttPublish publish = exact.readInbound();
        assertEquals(1018, publish.content().readableBytes());
        publish.release();
        assertFalse(exact.finishAndReleaseAll());
        assertInstanceOf(MqttPacketTooLargeException.class, refused("30 ff ff ff 7f", () -> MqttCodec.client(V5)));
    }

    @Test
    void mqtt_02_variableByteIntegersMustBeMinimalAndAtMostFourBytes() {
        assertTrue(refused("10 80 00", SERVER).getMessage().contains("minimally"));
        assertTrue(refused("10 8d 80 00", SERVER).getMessage().contains("minimally"));
        assertTrue(refused("30 ff ff ff ff 01", () -> MqttCodec.client(V3_1_1)).getMessage().contains("four bytes"));
        // A property length and a subscription identifier encoded with a redundant zero byte.
        assertEquals(MqttReasonCode.MALFORMED_PACKET, refusedAfterConnect(V5, "30 07 0001 61 8080 00 00").reasonCode());
        assertEquals(MqttReasonCode.MALFORMED_PACKET, refusedAfterConnect(V5, "30 07 0001 61 03 0b 8100").reasonCode());
        assertEquals(MqttReasonCode.MALFORMED_PACKET, refusedAfterConnect(V5, "30 09 0001 61 05 0b ffffffff").reasonCode());
    }

    @Test
    void mqtt_03_stringsMustBeWellFormedUtf8WithoutNul() {
        assertTrue(refusedAfterConnect(V3_1_1, "30 05 0003 610062").getMessage().contains("U+0000"));
        assertTrue(refusedAfterConnect(V3_1_1, "30 05 0003 eda080").getMessage().contains("UTF-8"), "surrogate");
        assertTrue(refusedAfterConnect(V3_1_1, "30 04 0002 c080").getMessage().contains("UTF-8"), "overlong NUL");
        assertTrue(refusedAfterConnect(V3_1_1, "30 04 0002 61e2").getMessage().contains("UTF-8"), "truncated");
        assertTrue(refusedAfterConnect(V3_1_1, "30 06 0004 f4908080").getMessage().contains("UTF-8"), "above U+10FFFF");
        // The client identifier is checked the same way.
        assertTrue(refused("10 0d 0004 4d515454 04 02 003c 0001 00", SERVER).getMessage().contains("U+0000"));
    }

    @Test
    void mqtt_04_topicNamesCarryNoWildcardsAndFiltersPlaceThemRight() {
        assertEquals(MqttReasonCode.TOPIC_NAME_INVALID, refusedAfterConnect(V3_1_1, "30 05 0003 612f2b").reasonCode());
        assertEquals(MqttReasonCode.TOPIC_NAME_INVALID, refusedAfterConnect(V3_1_1, "30 03 0001 23").reasonCode());
        assertEquals(MqttReasonCode.TOPIC_NAME_INVALID, refusedAfterConnect(V3_1_1, "30 02 0000").reasonCode());
        assertTrue(refusedAfterConnect(V3_1_1, "82 07 0001 0002 612b 00").getMessage().contains("'+'"));
        assertTrue(refusedAfterConnect(V3_1_1, "82 08 0001 0003 232f61 00").getMessage().contains("'#'"));
        assertTrue(refusedAfterConnect(V3_1_1, "a2 06 0001 0002 6123").getMessage().contains("'#'"));
        assertTrue(refusedAfterConnect(V5, "82 0e 0001 00 0008 2473686172652f67 00").getMessage().contains("$share"));
        // A will topic too.
        assertEquals(MqttReasonCode.TOPIC_NAME_INVALID,
                refused("10 13 0004 4d515454 04 06 003c 0001 63 0001 2b 0002 6869", SERVER).reasonCode());
    }

    @Test
    void mqtt_05_fixedHeaderFlagsAreCheckedPerPacketType() {
        assertTrue(refusedAfterConnect(V3_1_1, "80 06 0001 0001 61 00").getMessage().contains("flags"), "SUBSCRIBE without 0x2");
        assertTrue(refusedAfterConnect(V3_1_1, "60 02 0001").getMessage().contains("flags"), "PUBREL without 0x2");
        assertTrue(refusedAfterConnect(V3_1_1, "c1 00").getMessage().contains("flags"), "PINGREQ with a flag");
        assertTrue(refusedAfterConnect(V3_1_1, "36 05 0001 61 0001").getMessage().contains("QoS 3"));
        assertTrue(refusedAfterConnect(V3_1_1, "38 03 0001 61").getMessage().contains("DUP"));
        assertTrue(refused("11 0d 0004 4d515454 04 02 003c 0001 63", SERVER).getMessage().contains("flags"));
        assertTrue(refusedAfterConnect(V3_1_1, "00 00").getMessage().contains("reserved"));
    }

    @Test
    void mqtt_06_propertiesAreCheckedForPlaceRepetitionAndValue() {
        assertTrue(refusedAfterConnect(V5, "30 06 0001 61 02 7f 00").getMessage().contains("unknown property"));
        MqttDecoderException wrongPlace = refusedAfterConnect(V5, "30 07 0001 61 03 21 0001");
        assertEquals(MqttReasonCode.PROTOCOL_ERROR, wrongPlace.reasonCode(), "Receive Maximum in PUBLISH");
        MqttDecoderException twice = refusedAfterConnect(V5, "30 08 0001 61 04 01 01 01 01");
        assertTrue(twice.getMessage().contains("twice"), twice.getMessage());
        assertTrue(refusedAfterConnect(V5, "30 06 0001 61 02 01 02").getMessage().contains("0 or 1"));
        assertTrue(refusedAfterConnect(V5, "30 07 0001 61 03 23 0000").getMessage().contains("must not be 0"));
        assertTrue(refusedAfterConnect(V5, "30 06 0001 61 09 01 01").getMessage().contains("past the end"));
        assertTrue(refusedAfterConnect(V5, "30 0a 0001 61 06 08 0003 612f23").getMessage().contains("wildcard"),
                "Response Topic must be a topic name");
        // Repeatable ones repeat: two user properties and two subscription identifiers decode.
        MqttDecodeRun.Result ok = everyWay(concat(connectBytes(V5), hex("30 10 0001 61 0c 26 0001 6b 0001 76 26 0000 0000")), SERVER);
        assertTrue(ok.errors().isEmpty(), () -> "errors: " + ok.errors());
    }

    @Test
    void mqtt_07_packetsMustComeInOrderAndTravelTheirWay() {
        assertEquals(MqttReasonCode.PROTOCOL_ERROR, refused("c0 00", SERVER).reasonCode(), "PINGREQ before CONNECT");
        assertTrue(refusedAfterConnect(V3_1_1, "10 0d 0004 4d515454 04 02 003c 0001 63").getMessage().contains("second CONNECT"));
        assertTrue(refusedAfterConnect(V3_1_1, "20 02 0000").getMessage().contains("to a server"));
        assertTrue(refusedAfterConnect(V3_1_1, "f0 00").getMessage().contains("3.1.1"), "AUTH in 3.1.1");
        assertTrue(refused("c0 00", () -> MqttCodec.client(V5)).getMessage().contains("to a client"));
        assertTrue(refused("e0 00", () -> MqttCodec.client(V3_1_1)).getMessage().contains("3.1.1"));
    }

    @Test
    void mqtt_08_listsInOnePacketAreCapped() {
        // Three filters "a/" against a cap of 2 (each filter: 2 + 2 + 1 bytes, body 2 + 15 = 17 = 0x11).
        String packet = "82 11 0001 0002 612f 00 0002 622f 00 0002 632f 00";
        MqttDecodeRun.Result result = everyWay(concat(connectBytes(V3_1_1), hex(packet)), () -> MqttCodec.server(1024, 2));
        assertTrue(result.onlyError().getMessage().contains("maxListEntries"), result.onlyError().getMessage());
        // Three user properties against a cap of 2.
        MqttDecodeRun.Result props = everyWay(concat(connectBytes(V5), hex("30 13 0001 61 0f 26 0000 0000 26 0000 0000 26 0000 0000")),
                () -> MqttCodec.server(1024, 2));
        assertTrue(props.onlyError().getMessage().contains("maxListEntries"));
    }

    @Test
    void mqtt_09_innerLengthsStayInsideThePacket() {
        assertTrue(refusedAfterConnect(V3_1_1, "30 03 0005 61").getMessage().contains("past the end"));
        assertTrue(refusedAfterConnect(V3_1_1, "40 03 0001 00").getMessage().contains("after its end"), "3.1.1 PUBACK is 2 bytes");
        assertTrue(refusedAfterConnect(V3_1_1, "e0 01 00").getMessage().contains("after its end"));
        assertTrue(refusedAfterConnect(V3_1_1, "c0 01 00").getMessage().contains("after its end"));
        assertTrue(refused("10 0c 0004 4d515454 04 02 003c 0001", SERVER).getMessage().contains("past the end"));
        assertTrue(refusedAfterConnect(V3_1_1, "82 02 0001").getMessage().contains("past the end"), "SUBSCRIBE without a filter");
    }

    @Test
    void mqtt_10_nothingAfterABadPacketIsDecoded() {
        // A bad PUBLISH followed, in the same read, by a good one: only the CONNECT decodes.
        byte[] input = concat(connectBytes(V3_1_1), hex("36 05 0001 61 0001"), hex("30 03 0001 61"));
        MqttDecodeRun.Result result = everyWay(input, SERVER);
        assertEquals(1, result.messages().size());
        result.onlyError();
    }

    @Test
    void mqtt_11_unsupportedProtocolLevelsAreNamed() {
        MqttDecoderException level3 = refused("10 0f 0006 4d5149736470 03 02 003c 0001 63", SERVER);
        assertInstanceOf(MqttUnsupportedVersionException.class, level3);
        assertEquals(MqttReasonCode.UNSUPPORTED_PROTOCOL_VERSION, level3.reasonCode());
        assertInstanceOf(MqttUnsupportedVersionException.class, refused("10 0d 0004 4d515454 06 02 003c 0001 63", SERVER));
    }

    @Test
    void mqtt_12_connectAndIdentifierRulesAreChecked() {
        assertTrue(refused("10 0d 0004 4d515454 04 03 003c 0001 63", SERVER).getMessage().contains("reserved flag"));
        assertTrue(refused("10 0d 0004 4d515454 04 22 003c 0001 63", SERVER).getMessage().contains("without a will"));
        assertTrue(refused("10 0f 0004 4d515454 04 42 003c 0001 63 0000", SERVER).getMessage().contains("password"));
        assertTrue(refusedAfterConnect(V3_1_1, "32 05 0001 61 0000").getMessage().contains("packet identifier 0"));
        assertTrue(refusedAfterConnect(V3_1_1, "40 02 0000").getMessage().contains("packet identifier 0"));
        assertTrue(refused("20 02 01 05", () -> MqttCodec.client(V3_1_1)).getMessage().contains("session present"));
        assertTrue(refused("20 02 00 06", () -> MqttCodec.client(V3_1_1)).getMessage().contains("reason code"));
        assertTrue(refused("20 03 00 10 00", () -> MqttCodec.client(V5)).getMessage().contains("reason code"));
    }
}
