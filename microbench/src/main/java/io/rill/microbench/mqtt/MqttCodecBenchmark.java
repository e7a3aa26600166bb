package io.rill.microbench.mqtt;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.mqtt.MqttCodec;
import io.rill.handler.codec.mqtt.MqttConnect;
import io.rill.handler.codec.mqtt.MqttProperties;
import io.rill.handler.codec.mqtt.MqttPropertyId;
import io.rill.handler.codec.mqtt.MqttPublish;
import io.rill.handler.codec.mqtt.MqttVersion;

/**
 * A QoS 1 PUBLISH of 64 payload bytes on topic {@code sensors/room-12/temperature}, decoded and
 * encoded by a broker's {@link MqttCodec} (after the client's CONNECT set the version) in MQTT
 * 3.1.1, and in 5.0 with two properties (Message Expiry Interval, Content Type). One operation =
 * one packet. Netty 4.1's codec in the same shapes: {@code NettyMqttCodecBenchmark} ({@code peers}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class MqttCodecBenchmark {

    /** The topic of the benchmark's PUBLISH, shared with Netty's side. */
    public static final String TOPIC = "sensors/room-12/temperature";

    @Param({"3.1.1", "5"})
    public String version;

    private byte[] payload;
    private MqttProperties properties;
    private ByteBuf wire;
    private EmbeddedChannel decoding;
    private EmbeddedChannel encoding;

    @Setup
    public void setUp() {
        MqttVersion v = version.equals("5") ? MqttVersion.V5 : MqttVersion.V3_1_1;
        payload = new byte[64];
        Arrays.fill(payload, (byte) 'x');
        properties = v.isV5() ? MqttProperties.builder().add(MqttPropertyId.MESSAGE_EXPIRY_INTERVAL, 60L)
                .add(MqttPropertyId.CONTENT_TYPE, "text/plain").build() : MqttProperties.NONE;
        decoding = connected(v);
        encoding = connected(v);
        EmbeddedChannel client = new EmbeddedChannel(MqttCodec.client(v));
        client.writeOutbound(publish());
        ByteBuf encoded = client.readOutbound();
        wire = Unpooled.directBuffer(encoded.readableBytes()).writeBytes(encoded);
        encoded.release();
        client.finishAndReleaseAll();
    }

    /** A broker's codec that has decoded a CONNECT of {@code v}. */
    private static EmbeddedChannel connected(MqttVersion v) {
        EmbeddedChannel client = new EmbeddedChannel(MqttCodec.client(v));
        client.writeOutbound(new MqttConnect(v, "bench", true, 60, MqttProperties.NONE));
        ByteBuf connect = client.readOutbound();
        client.finishAndReleaseAll();
        EmbeddedChannel server = new EmbeddedChannel(MqttCodec.server());
        server.writeInbound(connect);
        ReferenceCountUtil.release(server.readInbound());
        return server;
    }

    private MqttPublish publish() {
        return new MqttPublish(TOPIC, 1, false, false, 1, properties, Unpooled.wrappedBuffer(payload));
    }

    @TearDown
    public void tearDown() {
        wire.release();
        decoding.finishAndReleaseAll();
        encoding.finishAndReleaseAll();
    }

    @Benchmark
    public int decode() {
        decoding.writeInbound(wire.retainedDuplicate());
        MqttPublish publish = decoding.readInbound();
        int n = publish.content().readableBytes() + publish.topic().length();
        publish.release();
        return n;
    }

    @Benchmark
    public int encode() {
        encoding.writeOutbound(publish());
        int n = 0;
        for (ByteBuf b; (b = encoding.readOutbound()) != null; b.release()) {
            n += b.readableBytes();
        }
        return n;
    }
}
