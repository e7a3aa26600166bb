package io.rill.example;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.handler.codec.mqtt.MqttConnect;
import io.rill.handler.codec.mqtt.MqttProperties;
import io.rill.handler.codec.mqtt.MqttPropertyId;
import io.rill.handler.codec.mqtt.MqttSubscription;
import io.rill.handler.codec.mqtt.MqttVersion;

/**
 * {@code mqtt-client [--v5] pub TOPIC MESSAGE | sub FILTER [--count N]}: publishes one message, or
 * subscribes and prints {@code TOPIC PAYLOAD} per message received (after a line
 * {@code Subscribed to FILTER (granted QoS N)}), until {@code --count} messages or the end.
 */
final class MqttClientExample implements Example {

    private static final ExampleOption V5 = ExampleOption.flag("v5", "speak MQTT 5.0 (default 3.1.1)");
    private static final ExampleOption QOS = ExampleOption.number("qos", "0|1|2", 0, 0, 2, "QoS of the message or subscription");
    private static final ExampleOption RETAIN = ExampleOption.flag("retain", "pub: ask the broker to retain the message");
    private static final ExampleOption COUNT = ExampleOption.number("count", "N", 0, 0, Integer.MAX_VALUE,
            "sub: exit after N messages (0: run until stopped)");
    private static final ExampleOption CLIENT_ID = ExampleOption.text("client-id", "ID", "",
            "client identifier (empty: the broker assigns one)");
    private static final ExampleOption KEEP_ALIVE = ExampleOption.number("keep-alive", "SECONDS", 60, 0, 65_535,
            "keep-alive interval announced in CONNECT");

    @Override
    public String name() {
        return "mqtt-client";
    }

    @Override
    public String description() {
        return "publishes to or subscribes at an MQTT broker (try: mqtt-client --port 1883 sub 'a/#' --count 1)";
    }

    @Override
    public List<ExampleOption> options() {
        return List.of(V5, QOS, RETAIN, COUNT, CLIENT_ID, KEEP_ALIVE);
    }

    @Override
    public List<String> limits() {
        return List.of("packets from the broker: at most 256 KiB (MqttCodec.DEFAULT_MAX_PACKET_SIZE), refused from the fixed header",
                "CONNACK, PUBACK and SUBACK: each awaited at most 10 s");
    }

    @Override
    public String arguments() {
        return "pub TOPIC MESSAGE | sub FILTER";
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        List<String> args = options.arguments();
        boolean pub = args.size() == 3 && args.get(0).equals("pub");
        boolean sub = args.size() == 2 && args.get(0).equals("sub");
        if (!pub && !sub) {
            throw new ExampleOptions.UsageException("expected: pub TOPIC MESSAGE | sub FILTER");
        }
        MqttVersion version = options.flag(V5) ? MqttVersion.V5 : MqttVersion.V3_1_1;
        int qos = options.intValue(QOS);
        int count = options.intValue(COUNT);
        MqttConnect connect = new MqttConnect(version, options.text(CLIENT_ID), true, options.intValue(KEEP_ALIVE),
                MqttProperties.NONE);
        MultiThreadIoEventLoopGroup group = Transports.newGroup(options, name());
        try {
            CountDownLatch received = new CountDownLatch(Math.max(count, 1));
            AtomicInteger printed = new AtomicInteger();
            MqttClientConnection connection = MqttClientConnection.connect(group, Transports.clientChannel(options), options.host,
                    options.port, connect, publish -> {
                        if (count == 0 || printed.incrementAndGet() <= count) {
                            System.out.println(publish.topic() + " " + publish.content().toString(StandardCharsets.UTF_8));
                            System.out.flush();
                            received.countDown();
                        }
                    });
            if (pub) {
                connection.publish(args.get(1), args.get(2).getBytes(StandardCharsets.UTF_8), qos, options.flag(RETAIN),
                        MqttProperties.NONE).get(10, TimeUnit.SECONDS);
                connection.disconnect();
                return;
            }
            MqttProperties properties = version.isV5()
                    ? MqttProperties.builder().add(MqttPropertyId.SUBSCRIPTION_IDENTIFIER, 1).build() : MqttProperties.NONE;
            List<Integer> granted = connection.subscribe(new MqttSubscription(args.get(1), qos), properties).get(10, TimeUnit.SECONDS);
            if (granted.get(0) >= 0x80) {
                throw new java.io.IOException("subscription to " + args.get(1) + " refused: 0x" + Integer.toHexString(granted.get(0)));
            }
            System.out.println("Subscribed to " + args.get(1) + " (granted QoS " + granted.get(0) + ")");
            System.out.flush();
            if (count == 0) {
                connection.closeFuture().sync();
                return;
            }
            received.await();
            connection.disconnect();
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        }
    }
}
