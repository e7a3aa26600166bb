package io.rill.microbench.peers;

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

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.mqtt.MqttDecoder;
import io.netty.handler.codec.mqtt.MqttEncoder;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttProperties;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttVersion;
import io.netty.util.ReferenceCountUtil;

import io.rill.microbench.mqtt.MqttCodecBenchmark;

/**
 * Netty 4.1's side of {@link MqttCodecBenchmark}, the same shapes: a QoS 1 PUBLISH of 64 bytes,
 * decoded and encoded by a broker-side {@link MqttDecoder} and {@link MqttEncoder} after a CONNECT
 * of the version (which Netty keeps in a channel attribute), with the pooled allocator. One
 * operation = one packet.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class NettyMqttCodecBenchmark {

    @Param({"3.1.1", "5"})
    public String version;

    private byte[] payload;
    private MqttProperties properties;
    private ByteBuf wire;
    private EmbeddedChannel decoding;
    private EmbeddedChannel encoding;

    @Setup
    public void setUp() {
        MqttVersion v = version.equals("5") ? MqttVersion.MQTT_5 : MqttVersion.MQTT_3_1_1;
        payload = new byte[64];
        Arrays.fill(payload, (byte) 'x');
        properties = new MqttProperties();
        if (v == MqttVersion.MQTT_5) {
            properties.add(new MqttProperties.IntegerProperty(MqttProperties.MqttPropertyType.PUBLICATION_EXPIRY_INTERVAL.value(), 60));
            properties.add(new MqttProperties.StringProperty(MqttProperties.MqttPropertyType.CONTENT_TYPE.value(), "text/plain"));
        }
        decoding = connected(v);
        encoding = connected(v);
        EmbeddedChannel client = connected(v);
        client.writeOutbound(publish());
        ByteBuf encoded = client.readOutbound();
        wire = Unpooled.directBuffer(encoded.readableBytes()).writeBytes(encoded);
        encoded.release();
        client.finishAndReleaseAll();
    }

    /** A decoder and encoder in one channel that has decoded a CONNECT of {@code v}. */
    private static EmbeddedChannel connected(MqttVersion v) {
        EmbeddedChannel client = new EmbeddedChannel(MqttEncoder.INSTANCE);
        MqttMessage connect = MqttMessageBuilders.connect().clientId("bench").protocolVersion(v).cleanSession(true)
                .keepAlive(60).build();
        client.writeOutbound(connect);
        ByteBuf bytes = client.readOutbound();
        client.finishAndReleaseAll();
        EmbeddedChannel server = new EmbeddedChannel(new MqttDecoder(), MqttEncoder.INSTANCE);
        server.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        server.writeInbound(bytes);
        ReferenceCountUtil.release(server.readInbound());
        return server;
    }

    private MqttPublishMessage publish() {
        return MqttMessageBuilders.publish().topicName(MqttCodecBenchmark.TOPIC).qos(MqttQoS.AT_LEAST_ONCE).messageId(1)
                .retained(false).properties(properties).payload(Unpooled.wrappedBuffer(payload)).build();
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
        MqttPublishMessage publish = decoding.readInbound();
        int n = publish.payload().readableBytes() + publish.variableHeader().topicName().length();
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
