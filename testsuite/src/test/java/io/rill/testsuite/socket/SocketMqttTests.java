package io.rill.testsuite.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.mqtt.MqttCodec;
import io.rill.handler.codec.mqtt.MqttConnAck;
import io.rill.handler.codec.mqtt.MqttConnect;
import io.rill.handler.codec.mqtt.MqttDecoderException;
import io.rill.handler.codec.mqtt.MqttDisconnect;
import io.rill.handler.codec.mqtt.MqttMessage;
import io.rill.handler.codec.mqtt.MqttPacketType;
import io.rill.handler.codec.mqtt.MqttProperties;
import io.rill.handler.codec.mqtt.MqttPubAck;
import io.rill.handler.codec.mqtt.MqttPublish;
import io.rill.handler.codec.mqtt.MqttReasonCode;
import io.rill.handler.codec.mqtt.MqttVersion;

/**
 * {@link MqttCodec} behind a real transport, both sides: MQTT 5 packets written as bytes cut at
 * random points arrive whole and in order through whatever reads the transport makes, and a packet
 * over the broker's maximum size is answered with DISCONNECT 0x95 and the close (MQTT-01).
 */
abstract class SocketMqttTests extends AbstractSocketTest {

    /** A broker's side: CONNACK to CONNECT, PUBACK and an echo to each PUBLISH, DISCONNECT with the reason to a bad packet. */
    static final class EchoBroker implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof MqttConnect) {
                ctx.writeAndFlush(new MqttConnAck(false, MqttReasonCode.SUCCESS, MqttProperties.NONE));
            } else if (msg instanceof MqttPublish publish) {
                if (publish.qos() == 1) {
                    ctx.write(new MqttPubAck(MqttPacketType.PUBACK, publish.packetId()));
                }
                ctx.writeAndFlush(publish); // the codec releases it once written
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            int reason = cause instanceof MqttDecoderException bad ? bad.reasonCode() : MqttReasonCode.UNSPECIFIED_ERROR;
            ctx.writeAndFlush(new MqttDisconnect(reason, MqttProperties.NONE)).addListener(f -> ctx.close());
        }
    }

    /** A client's side: every message received on a queue, PUBLISH payloads copied and released. */
    static final class Collect implements ChannelHandler {
        final BlockingQueue<Object> received = new LinkedBlockingQueue<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof MqttPublish publish) {
                received.add(ByteBufUtil.getBytes(publish.content()));
                publish.release();
            } else {
                received.add(msg);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            received.add("closed");
        }
    }

    private Channel broker(int maxPacketSize) {
        return startServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(MqttCodec.server(maxPacketSize, 64), new EchoBroker());
            }
        });
    }

    private Channel client(Channel server, Collect collect) {
        return connect(server, new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(MqttCodec.client(MqttVersion.V5), collect);
            }
        });
    }

    /** The bytes a 5.0 client writes for {@code messages}. */
    private static byte[] encode(List<MqttMessage> messages) {
        EmbeddedChannel encoder = new EmbeddedChannel(MqttCodec.client(MqttVersion.V5));
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (MqttMessage m : messages) {
            encoder.writeOutbound(m);
            for (ByteBuf b; (b = encoder.readOutbound()) != null; b.release()) {
                wire.writeBytes(ByteBufUtil.getBytes(b));
            }
        }
        encoder.finishAndReleaseAll();
        return wire.toByteArray();
    }

    @Test
    void packetsCutAtRandomArriveWholeAndInOrderBothWays() throws Exception {
        Channel server = broker(MqttCodec.DEFAULT_MAX_PACKET_SIZE);
        Collect collect = new Collect();
        Channel client = client(server, collect);
        Random random = new Random(0x3177);
        List<MqttMessage> messages = new ArrayList<>();
        messages.add(new MqttConnect(MqttVersion.V5, "suite", true, 0, MqttProperties.NONE));
        List<byte[]> payloads = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            byte[] payload = new byte[random.nextInt(i % 10 == 0 ? 100_000 : 500)];
            random.nextBytes(payload);
            payloads.add(payload);
            int qos = i % 2;
            messages.add(new MqttPublish("suite/" + i, qos, false, false, qos == 0 ? 0 : 1 + i, MqttProperties.NONE,
                    Unpooled.wrappedBuffer(payload)));
        }
        byte[] wire = encode(messages);
        for (int off = 0, n; off < wire.length; off += n) {
            n = Math.min(wire.length - off, 1 + random.nextInt(random.nextBoolean() ? 7 : 8192));
            client.write(client.alloc().buffer(n).writeBytes(wire, off, n)); // raw bytes pass the codec untouched
            if (random.nextInt(3) == 0) {
                client.flush();
            }
        }
        client.flush();
        assertInstanceOf(MqttConnAck.class, take(collect.received), transport + ": CONNACK");
        for (int i = 0; i < payloads.size(); i++) {
            if (i % 2 == 1) {
                assertEquals(new MqttPubAck(MqttPacketType.PUBACK, 1 + i), take(collect.received), transport + ": PUBACK " + i);
            }
            assertArrayEquals(payloads.get(i), (byte[]) take(collect.received), transport + ": PUBLISH " + i);
        }
    }

    @Test
    void mqtt_01_aPacketOverTheBrokersLimitGetsDisconnect0x95AndTheClose() throws Exception {
        Channel server = broker(1024);
        Collect collect = new Collect();
        Channel client = client(server, collect);
        client.writeAndFlush(new MqttConnect(MqttVersion.V5, "big", true, 0, MqttProperties.NONE));
        assertInstanceOf(MqttConnAck.class, take(collect.received));
        await(client.writeAndFlush(new MqttPublish("big", 0, false, false, 0, MqttProperties.NONE,
                Unpooled.wrappedBuffer(new byte[4096]))));
        assertEquals(new MqttDisconnect(MqttReasonCode.PACKET_TOO_LARGE, MqttProperties.NONE), take(collect.received),
                transport + ": DISCONNECT with the reason");
        assertEquals("closed", take(collect.received));
    }
}
