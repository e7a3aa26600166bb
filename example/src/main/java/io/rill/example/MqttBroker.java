package io.rill.example;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.rill.buffer.ByteBufUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.mqtt.MqttConnAck;
import io.rill.handler.codec.mqtt.MqttConnect;
import io.rill.handler.codec.mqtt.MqttCodec;
import io.rill.handler.codec.mqtt.MqttDecoderException;
import io.rill.handler.codec.mqtt.MqttDisconnect;
import io.rill.handler.codec.mqtt.MqttMessage;
import io.rill.handler.codec.mqtt.MqttPacketType;
import io.rill.handler.codec.mqtt.MqttPing;
import io.rill.handler.codec.mqtt.MqttProperties;
import io.rill.handler.codec.mqtt.MqttPropertyId;
import io.rill.handler.codec.mqtt.MqttPubAck;
import io.rill.handler.codec.mqtt.MqttPublish;
import io.rill.handler.codec.mqtt.MqttReasonCode;
import io.rill.handler.codec.mqtt.MqttSubAck;
import io.rill.handler.codec.mqtt.MqttSubscribe;
import io.rill.handler.codec.mqtt.MqttSubscription;
import io.rill.handler.codec.mqtt.MqttTopics;
import io.rill.handler.codec.mqtt.MqttUnsubAck;
import io.rill.handler.codec.mqtt.MqttUnsubscribe;
import io.rill.handler.codec.mqtt.MqttUnsupportedVersionException;
import io.rill.handler.codec.mqtt.MqttVersion;
import io.rill.handler.codec.mqtt.MqttWill;
import io.rill.handler.timeout.IdleStateEvent;
import io.rill.handler.timeout.IdleStateHandler;

/**
 * An MQTT 3.1.1 and 5.0 broker in memory: QoS 0, 1 and 2 both ways, retained messages, wills
 * (published after the MQTT 5 Will Delay Interval unless the client comes back first),
 * {@code +}/{@code #} subscriptions, shared subscriptions ({@code $share/NAME/FILTER}: each
 * message to one session of the group, in turn), sessions that outlive the connection (3.1.1 clean
 * session 0 until the next clean one; 5.0 for the Session Expiry Interval, then ended) with
 * redelivery of unacknowledged QoS 1 and 2 messages on reconnect, and the MQTT 5 properties a client
 * relies on: message expiry, topic aliases, Receive Maximum and Maximum Packet Size both ways,
 * announced in CONNACK.
 *
 * <p>Bounded: a packet is at most {@code --max-packet-size} bytes (refused from its fixed header),
 * each client's queue holds at most {@code --max-queued} messages (more are dropped), a session
 * outlives its connection by at most {@code --max-session-expiry-s}, a connection must send CONNECT
 * within {@code --connect-timeout-ms} and then something every 1.5 keep-alive intervals (section
 * 3.1.2.10), else it is closed and its will published.
 */
final class MqttBroker implements Example {

    private static final ExampleOption MAX_PACKET_SIZE = ExampleOption.number("max-packet-size", "BYTES",
            MqttCodec.DEFAULT_MAX_PACKET_SIZE, 64, 268_435_460, "the largest packet accepted, announced in CONNACK");
    private static final ExampleOption MAX_QUEUED = ExampleOption.number("max-queued", "N", 1000, 1, 1_000_000,
            "messages one client's queue holds (offline or beyond its Receive Maximum); more are dropped");
    private static final ExampleOption CONNECT_TIMEOUT = ExampleOption.number("connect-timeout-ms", "MS", 10_000, 1,
            600_000, "close a connection that has not sent CONNECT by then");
    private static final ExampleOption MAX_SESSION_EXPIRY = ExampleOption.number("max-session-expiry-s", "SECONDS", 86_400, 0,
            MqttSessions.NEVER_EXPIRES, "the longest a session outlives its connection (5.0: announced in CONNACK when a "
                    + "client asks for more; 3.1.1 persistent sessions too); 4294967295: for ever");
    /** Topic aliases a client may use towards the broker (MQTT 5). */
    private static final int TOPIC_ALIAS_MAXIMUM = 16;
    /** Unreleased QoS 2 messages a client may have towards the broker (MQTT 5 Receive Maximum). */
    private static final int RECEIVE_MAXIMUM = 64;

    @Override
    public String name() {
        return "mqtt-broker";
    }

    @Override
    public String description() {
        return "an MQTT 3.1.1 and 5.0 broker in memory (try: mosquitto_sub -p PORT -t '#' -v)";
    }

    @Override
    public List<ExampleOption> options() {
        return List.of(MAX_PACKET_SIZE, MAX_QUEUED, CONNECT_TIMEOUT, MAX_SESSION_EXPIRY);
    }

    @Override
    public List<String> limits() {
        return List.of("packets: at most --max-packet-size (256 KiB), refused from the fixed header",
                "queues: --max-queued (1000) messages per client, then dropped",
                "sessions: kept at most --max-session-expiry-s (1 day) after their connection ends, whatever the client asks",
                "CONNECT within --connect-timeout-ms (10 s), then a packet every 1.5 keep-alive intervals",
                ServerRunner.READING_LIMIT);
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        MqttSessions sessions = new MqttSessions(options.intValue(MAX_QUEUED));
        int maxPacketSize = options.intValue(MAX_PACKET_SIZE);
        int connectTimeout = options.intValue(CONNECT_TIMEOUT);
        long maxSessionExpiry = options.number(MAX_SESSION_EXPIRY);
        ServerRunner.run(options, name(), new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast("mqtt", MqttCodec.server(maxPacketSize, MqttCodec.DEFAULT_MAX_LIST_ENTRIES));
                ch.pipeline().addLast(new Connection(sessions, connectTimeout, maxSessionExpiry));
            }
        });
    }

    /** One client connection: CONNECT first, then its packets, until DISCONNECT, a close or a refusal. */
    private static final class Connection implements ChannelHandler {
        private final MqttSessions sessions;
        private final int connectTimeoutMillis;
        private final long maxSessionExpiry;
        private ScheduledFuture<?> connectDeadline;
        private MqttSessions.Session session;
        private MqttVersion version;
        private MqttWill will;
        private final Map<Integer, String> topicAliases = new HashMap<>();

        Connection(MqttSessions sessions, int connectTimeoutMillis, long maxSessionExpiry) {
            this.sessions = sessions;
            this.connectTimeoutMillis = connectTimeoutMillis;
            this.maxSessionExpiry = maxSessionExpiry;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            connectDeadline = ctx.executor().schedule(() -> {
                ctx.close();
            }, connectTimeoutMillis, TimeUnit.MILLISECONDS);
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            MqttMessage message = (MqttMessage) msg;
            try {
                if (message instanceof MqttConnect connect) {
                    connect(ctx, connect);
                } else if (message instanceof MqttPublish publish) {
                    publish(ctx, publish);
                } else if (message instanceof MqttPubAck ack) {
                    acknowledgement(ctx, ack);
                } else if (message instanceof MqttSubscribe subscribe) {
                    subscribe(ctx, subscribe);
                } else if (message instanceof MqttUnsubscribe unsubscribe) {
                    unsubscribe(ctx, unsubscribe);
                } else if (message instanceof MqttPing) {
                    ctx.writeAndFlush(MqttPing.RESPONSE);
                } else if (message instanceof MqttDisconnect disconnect) {
                    if (disconnect.reasonCode() != MqttReasonCode.DISCONNECT_WITH_WILL_MESSAGE) {
                        will = null; // a normal DISCONNECT discards the will (3.1.2.5)
                    }
                    long expiry = disconnect.properties().number(MqttPropertyId.SESSION_EXPIRY_INTERVAL, -1);
                    if (expiry >= 0) {
                        synchronized (sessions) {
                            session.expirySeconds = Math.min(expiry, maxSessionExpiry);
                        }
                    }
                    ctx.close();
                } else {
                    refuse(ctx, MqttReasonCode.PROTOCOL_ERROR); // AUTH: no extended authentication here
                }
            } finally {
                if (message instanceof MqttPublish publish) {
                    publish.release();
                }
            }
        }

        private void connect(ChannelHandlerContext ctx, MqttConnect connect) {
            connectDeadline.cancel(false);
            version = connect.version();
            boolean v5 = version.isV5();
            MqttCodec codec = (MqttCodec) ctx.pipeline().get("mqtt");
            String clientId = connect.clientId();
            boolean assigned = false;
            if (clientId.isEmpty()) {
                if (!v5 && !connect.cleanStart()) {
                    // 3.1.1 section 3.1.3.1: an empty identifier needs clean session.
                    answerAndClose(ctx, new MqttConnAck(false, MqttReasonCode.V3_IDENTIFIER_REJECTED, MqttProperties.NONE));
                    return;
                }
                clientId = "rill-" + UUID.randomUUID();
                assigned = true;
            }
            boolean[] present = new boolean[1];
            session = sessions.open(clientId, connect.cleanStart(), ctx.channel(), codec, present);
            // 3.1.1: clean session 0 keeps the session until the next clean one; 5.0: the Session Expiry
            // Interval. Either way at most --max-session-expiry-s, so vanished clients cannot pile up sessions.
            long requestedExpiry = v5 ? connect.properties().number(MqttPropertyId.SESSION_EXPIRY_INTERVAL, 0)
                    : connect.cleanStart() ? 0 : MqttSessions.NEVER_EXPIRES;
            synchronized (sessions) {
                session.v5 = v5;
                session.receiveMaximum = (int) connect.properties().number(MqttPropertyId.RECEIVE_MAXIMUM, 65_535);
                session.expirySeconds = Math.min(requestedExpiry, maxSessionExpiry);
            }
            will = connect.will();
            if (connect.keepAliveSeconds() > 0) {
                // One and a half keep-alive intervals without a packet: the client is gone (3.1.2.10).
                ctx.pipeline().addFirst(new IdleStateHandler(connect.keepAliveSeconds() * 1500L, 0, 0, TimeUnit.MILLISECONDS));
            }
            MqttProperties properties = MqttProperties.NONE;
            if (v5) {
                MqttProperties.Builder b = MqttProperties.builder()
                        .add(MqttPropertyId.RECEIVE_MAXIMUM, RECEIVE_MAXIMUM)
                        .add(MqttPropertyId.TOPIC_ALIAS_MAXIMUM, TOPIC_ALIAS_MAXIMUM)
                        .add(MqttPropertyId.MAXIMUM_PACKET_SIZE, (long) codec.maxPacketSize());
                if (assigned) {
                    b.add(MqttPropertyId.ASSIGNED_CLIENT_IDENTIFIER, clientId);
                }
                if (requestedExpiry > maxSessionExpiry) {
                    b.add(MqttPropertyId.SESSION_EXPIRY_INTERVAL, maxSessionExpiry); // the server's value wins (3.2.2.3.2)
                }
                properties = b.build();
            }
            ctx.writeAndFlush(new MqttConnAck(present[0], MqttReasonCode.SUCCESS, properties));
            sessions.resume(session);
        }

        private void publish(ChannelHandlerContext ctx, MqttPublish publish) {
            String topic = publish.topic();
            if (version.isV5()) {
                Object alias = publish.properties().get(MqttPropertyId.TOPIC_ALIAS);
                if (alias != null) {
                    int a = (Integer) alias;
                    if (a > TOPIC_ALIAS_MAXIMUM) {
                        refuse(ctx, MqttReasonCode.TOPIC_ALIAS_INVALID);
                        return;
                    }
                    if (topic.isEmpty()) {
                        topic = topicAliases.get(a);
                        if (topic == null) {
                            refuse(ctx, MqttReasonCode.PROTOCOL_ERROR); // an alias never set (3.3.2.3.4)
                            return;
                        }
                    } else {
                        topicAliases.put(a, topic);
                    }
                }
            }
            if (publish.qos() == 2) {
                // Forwarded on the first PUBLISH, and not again for a DUP of it until PUBREL releases the
                // identifier (5.0 section 4.3.3); the identifiers stay with the session across reconnects.
                boolean first;
                synchronized (sessions) {
                    Set<Integer> received = session.qos2Received;
                    if (received.size() >= RECEIVE_MAXIMUM && !received.contains(publish.packetId())) {
                        refuse(ctx, MqttReasonCode.RECEIVE_MAXIMUM_EXCEEDED);
                        return;
                    }
                    first = received.add(publish.packetId());
                }
                ctx.writeAndFlush(new MqttPubAck(MqttPacketType.PUBREC, publish.packetId()));
                if (!first) {
                    return;
                }
            }
            long expiry = publish.properties().number(MqttPropertyId.MESSAGE_EXPIRY_INTERVAL, -1);
            MqttSessions.Message message = new MqttSessions.Message(topic, ByteBufUtil.getBytes(publish.content()),
                    publish.qos(), publish.retained(), publish.properties(),
                    expiry < 0 ? Long.MAX_VALUE : System.nanoTime() + TimeUnit.SECONDS.toNanos(expiry));
            int receivers = sessions.publish(message, session.clientId);
            if (publish.qos() == 1) {
                int code = receivers == 0 && version.isV5() ? MqttReasonCode.NO_MATCHING_SUBSCRIBERS : MqttReasonCode.SUCCESS;
                ctx.writeAndFlush(new MqttPubAck(MqttPacketType.PUBACK, publish.packetId(), code, MqttProperties.NONE));
            }
        }

        private void acknowledgement(ChannelHandlerContext ctx, MqttPubAck ack) {
            switch (ack.type()) {
                case PUBACK, PUBCOMP -> sessions.acknowledged(session, ack.packetId());
                case PUBREC -> sessions.received(session, ack.packetId(), ack.reasonCode());
                case PUBREL -> {
                    boolean known;
                    synchronized (sessions) {
                        known = session.qos2Received.remove(ack.packetId());
                    }
                    int code = known || !version.isV5() ? MqttReasonCode.SUCCESS : MqttReasonCode.PACKET_IDENTIFIER_NOT_FOUND;
                    ctx.writeAndFlush(new MqttPubAck(MqttPacketType.PUBCOMP, ack.packetId(), code, MqttProperties.NONE));
                }
                default -> refuse(ctx, MqttReasonCode.PROTOCOL_ERROR);
            }
        }

        private void subscribe(ChannelHandlerContext ctx, MqttSubscribe subscribe) {
            List<Integer> granted = new ArrayList<>();
            List<MqttSubscription> added = new ArrayList<>();
            List<Boolean> isNew = new ArrayList<>();
            Object id = subscribe.properties().get(MqttPropertyId.SUBSCRIPTION_IDENTIFIER);
            synchronized (sessions) {
                for (MqttSubscription sub : subscribe.subscriptions()) {
                    boolean fresh = session.subscriptions.put(sub.filter(), sub) == null;
                    if (id != null) {
                        session.subscriptionIds.put(sub.filter(), (Integer) id);
                    } else {
                        session.subscriptionIds.remove(sub.filter());
                    }
                    if (MqttTopics.isShared(sub.filter())) {
                        // No retained messages for a shared subscription (5.0 section 4.8.2).
                        sessions.joinShared(session, sub.filter());
                    } else {
                        isNew.add(fresh);
                        added.add(sub);
                    }
                    granted.add(sub.qos());
                }
            }
            ctx.writeAndFlush(new MqttSubAck(subscribe.packetId(), granted, MqttProperties.NONE));
            for (int i = 0; i < added.size(); i++) {
                MqttSubscription sub = added.get(i);
                // Retain Handling (5.0 section 3.8.3.1): 0 always, 1 only for a new subscription, 2 never.
                if (sub.retainHandling() == 0 || (sub.retainHandling() == 1 && isNew.get(i))) {
                    sessions.sendRetained(session, sub);
                }
            }
        }

        private void unsubscribe(ChannelHandlerContext ctx, MqttUnsubscribe unsubscribe) {
            List<Integer> codes = new ArrayList<>();
            synchronized (sessions) {
                for (String filter : unsubscribe.filters()) {
                    boolean existed = session.subscriptions.remove(filter) != null;
                    session.subscriptionIds.remove(filter);
                    if (MqttTopics.isShared(filter)) {
                        sessions.leaveShared(session, filter);
                    }
                    codes.add(existed ? MqttReasonCode.SUCCESS : MqttReasonCode.NO_SUBSCRIPTION_EXISTED);
                }
            }
            ctx.writeAndFlush(new MqttUnsubAck(unsubscribe.packetId(), version.isV5() ? codes : List.of(), MqttProperties.NONE));
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof IdleStateEvent) {
                refuse(ctx, MqttReasonCode.KEEP_ALIVE_TIMEOUT);
            } else {
                ctx.fireUserEventTriggered(evt);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (!(cause instanceof MqttDecoderException bad)) {
                ctx.close();
                return;
            }
            if (version == null) {
                // The CONNECT itself was refused: CONNACK in the form the client can read (4.13.1).
                MqttCodec codec = (MqttCodec) ctx.pipeline().get("mqtt");
                boolean v5 = codec.version() != null && codec.version().isV5();
                int code = v5 ? bad.reasonCode()
                        : bad instanceof MqttUnsupportedVersionException ? MqttReasonCode.V3_UNACCEPTABLE_PROTOCOL_VERSION : -1;
                if (code >= 0 && MqttReasonCode.isValidFor(MqttPacketType.CONNACK, code, v5 ? MqttVersion.V5 : MqttVersion.V3_1_1)) {
                    answerAndClose(ctx, new MqttConnAck(false, code, MqttProperties.NONE));
                } else {
                    ctx.close();
                }
                return;
            }
            refuse(ctx, bad.reasonCode());
        }

        /** Ends the connection for a broken rule: DISCONNECT with the reason in 5.0, a plain close in 3.1.1. */
        private void refuse(ChannelHandlerContext ctx, int reasonCode) {
            if (version != null && version.isV5() && MqttReasonCode.isValidFor(MqttPacketType.DISCONNECT, reasonCode, version)) {
                answerAndClose(ctx, new MqttDisconnect(reasonCode, MqttProperties.NONE));
            } else {
                ctx.close();
            }
        }

        private static void answerAndClose(ChannelHandlerContext ctx, MqttMessage answer) {
            ctx.writeAndFlush(answer).addListener(f -> ctx.close());
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (connectDeadline != null) {
                connectDeadline.cancel(false);
            }
            if (session != null) {
                MqttWill gone = will;
                will = null;
                MqttSessions.Message message = null;
                long willDelay = 0;
                if (gone != null) {
                    long expiry = gone.properties().number(MqttPropertyId.MESSAGE_EXPIRY_INTERVAL, -1);
                    message = new MqttSessions.Message(gone.topic(), gone.payload(), gone.qos(), gone.retain(), gone.properties(),
                            expiry < 0 ? Long.MAX_VALUE : System.nanoTime() + TimeUnit.SECONDS.toNanos(expiry));
                    willDelay = gone.properties().number(MqttPropertyId.WILL_DELAY_INTERVAL, 0);
                }
                sessions.closed(session, ctx.channel(), message, willDelay, ctx.executor());
            }
            ctx.fireChannelInactive();
        }
    }
}
