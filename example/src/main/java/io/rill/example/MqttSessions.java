package io.rill.example;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.handler.codec.mqtt.MqttCodec;
import io.rill.handler.codec.mqtt.MqttProperties;
import io.rill.handler.codec.mqtt.MqttPropertyId;
import io.rill.handler.codec.mqtt.MqttPublish;
import io.rill.handler.codec.mqtt.MqttSubscription;
import io.rill.handler.codec.mqtt.MqttTopics;

/**
 * The state of the {@code mqtt-broker} example shared by all connections: sessions by client
 * identifier, retained messages by topic, and the routing of a message to the subscribers whose
 * filters match it. Connections run on several event loops, so every method holds this object's
 * lock; writes to another connection's channel are thread-safe and leave the lock quickly.
 *
 * <p>Messages are kept as {@link Message} values (a {@code byte[]} payload), so one message can
 * wait in many queues without reference counting; each delivery wraps it in a fresh
 * {@link MqttPublish}.
 */
final class MqttSessions {

    /** An application message as the broker keeps it; {@code expiresAtNanos} is {@code Long.MAX_VALUE} for none. */
    record Message(String topic, byte[] payload, int qos, boolean retain, MqttProperties properties, long expiresAtNanos) {

        boolean expired(long now) {
            return now - expiresAtNanos > 0 && expiresAtNanos != Long.MAX_VALUE;
        }
    }

    /** What a subscriber gets: the message, its QoS for this subscriber and the subscription identifiers that matched. */
    record Delivery(Message message, int qos, boolean retainFlag, List<Integer> subscriptionIds) {
    }

    /**
     * One client's session: its subscriptions, the QoS 1 messages sent and not yet acknowledged
     * (redelivered with DUP on reconnect), and the queue of messages waiting for a send window or
     * for the client to come back. The queue is bounded: when full, new messages for this client are
     * dropped and counted.
     */
    static final class Session {
        final String clientId;
        final Map<String, MqttSubscription> subscriptions = new LinkedHashMap<>();
        final Map<String, Integer> subscriptionIds = new HashMap<>();
        final Map<Integer, Delivery> inFlight = new LinkedHashMap<>();
        final ArrayDeque<Delivery> queue = new ArrayDeque<>();
        /** The live connection, or null while the client is away. */
        Channel channel;
        MqttCodec codec;
        boolean v5;
        int receiveMaximum = 65_535;
        long expirySeconds;
        long dropped;
        private int nextPacketId = 1;

        Session(String clientId) {
            this.clientId = clientId;
        }

        int nextPacketId() {
            do {
                int id = nextPacketId;
                nextPacketId = nextPacketId == 65_535 ? 1 : nextPacketId + 1;
                if (!inFlight.containsKey(id)) {
                    return id;
                }
            } while (true);
        }
    }

    private final int maxQueued;
    private final Map<String, Session> sessions = new HashMap<>();
    private final Map<String, Message> retained = new HashMap<>();

    MqttSessions(int maxQueued) {
        this.maxQueued = maxQueued;
    }

    /** Takes over or creates the session of {@code clientId}; returns it and whether one was present. */
    synchronized Session open(String clientId, boolean cleanStart, Channel channel, MqttCodec codec, boolean[] present) {
        Session session = sessions.get(clientId);
        Channel previous = session == null ? null : session.channel;
        if (session == null || cleanStart) {
            present[0] = false;
            session = new Session(clientId);
            sessions.put(clientId, session);
        } else {
            present[0] = true;
        }
        // Set before closing the previous connection, whose close then finds the session taken over.
        session.channel = channel;
        session.codec = codec;
        if (previous != null && previous != channel) {
            previous.close(); // session takeover (5.0 section 3.1.4)
        }
        return session;
    }

    /** The connection of {@code session} ended: forget the session if it does not outlive it. */
    synchronized void closed(Session session, Channel channel) {
        if (session.channel != channel) {
            return; // taken over already
        }
        session.channel = null;
        session.codec = null;
        if (session.expirySeconds == 0 && sessions.get(session.clientId) == session) {
            sessions.remove(session.clientId);
        }
    }

    /** Publishes {@code message}: stores or clears it if retained, and delivers it to every matching subscription. Returns the number of receivers. */
    synchronized int publish(Message message, String fromClientId) {
        if (message.retain()) {
            if (message.payload().length == 0) {
                retained.remove(message.topic());
            } else {
                retained.put(message.topic(), message);
            }
        }
        int receivers = 0;
        for (Session session : sessions.values()) {
            int qos = -1;
            boolean retainAsPublished = false;
            List<Integer> ids = new ArrayList<>();
            for (MqttSubscription sub : session.subscriptions.values()) {
                if (!MqttTopics.matches(sub.filter(), message.topic())
                        || (sub.noLocal() && session.clientId.equals(fromClientId))) {
                    continue;
                }
                qos = Math.max(qos, Math.min(sub.qos(), message.qos()));
                retainAsPublished |= sub.retainAsPublished();
                Integer id = session.subscriptionIds.get(sub.filter());
                if (id != null) {
                    ids.add(id);
                }
            }
            if (qos >= 0) {
                receivers++;
                enqueue(session, new Delivery(message, qos, retainAsPublished && message.retain(), ids));
            }
        }
        return receivers;
    }

    /** The retained messages matching {@code filter}, as deliveries at most at {@code qos}. */
    synchronized void sendRetained(Session session, MqttSubscription sub) {
        long now = System.nanoTime();
        for (Iterator<Message> it = retained.values().iterator(); it.hasNext(); ) {
            Message m = it.next();
            if (m.expired(now)) {
                it.remove();
            } else if (MqttTopics.matches(sub.filter(), m.topic())) {
                Integer id = session.subscriptionIds.get(sub.filter());
                enqueue(session, new Delivery(m, Math.min(sub.qos(), m.qos()), true, id == null ? List.of() : List.of(id)));
            }
        }
    }

    /** A PUBACK came: the message leaves the window, and the next queued ones may go. */
    synchronized void acknowledged(Session session, int packetId) {
        session.inFlight.remove(packetId);
        drain(session);
    }

    /** On reconnect: resend the unacknowledged QoS 1 messages with DUP (4.4), then what queued meanwhile. */
    synchronized void resume(Session session) {
        for (Map.Entry<Integer, Delivery> e : session.inFlight.entrySet()) {
            send(session, e.getValue(), e.getKey(), true);
        }
        drain(session);
    }

    private void enqueue(Session session, Delivery delivery) {
        if (session.queue.size() >= maxQueued) {
            session.dropped++;
            return;
        }
        if (session.channel == null && delivery.qos() == 0) {
            return; // QoS 0 is not kept for an absent client (5.0 section 3.1.2.4 leaves it to the server)
        }
        session.queue.add(delivery);
        drain(session);
    }

    private void drain(Session session) {
        if (session.channel == null) {
            return;
        }
        long now = System.nanoTime();
        while (!session.queue.isEmpty()) {
            Delivery next = session.queue.peek();
            if (next.qos() > 0 && session.inFlight.size() >= session.receiveMaximum) {
                return; // the client's Receive Maximum: wait for a PUBACK
            }
            session.queue.poll();
            if (next.message().expired(now)) {
                continue;
            }
            int packetId = 0;
            if (next.qos() > 0) {
                packetId = session.nextPacketId();
                session.inFlight.put(packetId, next);
            }
            send(session, next, packetId, false);
        }
    }

    private static void send(Session session, Delivery d, int packetId, boolean dup) {
        Message m = d.message();
        MqttProperties properties = MqttProperties.NONE;
        if (session.v5) {
            MqttProperties.Builder b = MqttProperties.builder();
            for (int i = 0; i < m.properties().size(); i++) {
                MqttPropertyId id = m.properties().idAt(i);
                if (id != MqttPropertyId.MESSAGE_EXPIRY_INTERVAL && id != MqttPropertyId.TOPIC_ALIAS
                        && id != MqttPropertyId.SUBSCRIPTION_IDENTIFIER) {
                    b.add(id, m.properties().valueAt(i));
                }
            }
            if (m.expiresAtNanos() != Long.MAX_VALUE) {
                // What is left of the expiry interval (5.0 section 3.3.2.3.3).
                long left = Math.max(0, (m.expiresAtNanos() - System.nanoTime()) / 1_000_000_000L);
                b.add(MqttPropertyId.MESSAGE_EXPIRY_INTERVAL, left);
            }
            d.subscriptionIds().forEach(id -> b.add(MqttPropertyId.SUBSCRIPTION_IDENTIFIER, id));
            properties = b.build();
        }
        MqttPublish publish = new MqttPublish(m.topic(), d.qos(), d.retainFlag(), dup && d.qos() > 0, packetId, properties,
                Unpooled.wrappedBuffer(m.payload()));
        if (session.codec != null && session.codec.encodedSize(publish) > session.codec.peerMaxPacketSize()) {
            publish.release(); // larger than the client accepts: dropped (5.0 section 3.1.2.11.4)
            session.inFlight.remove(packetId);
            session.dropped++;
            return;
        }
        session.channel.writeAndFlush(publish);
    }
}
