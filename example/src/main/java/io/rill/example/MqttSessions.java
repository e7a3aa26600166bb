package io.rill.example;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.handler.codec.mqtt.MqttCodec;
import io.rill.handler.codec.mqtt.MqttPacketType;
import io.rill.handler.codec.mqtt.MqttProperties;
import io.rill.handler.codec.mqtt.MqttPropertyId;
import io.rill.handler.codec.mqtt.MqttPubAck;
import io.rill.handler.codec.mqtt.MqttPublish;
import io.rill.handler.codec.mqtt.MqttReasonCode;
import io.rill.handler.codec.mqtt.MqttSubscription;
import io.rill.handler.codec.mqtt.MqttTopics;
import io.rill.util.InternalLogger;

/**
 * The state of the {@code mqtt-broker} example shared by all connections: sessions by client
 * identifier, retained messages by topic, shared subscription groups, and the routing of a message
 * to the subscribers whose filters match it. Connections run on several event loops, so every
 * method holds this object's lock; writes to another connection's channel are thread-safe and leave
 * the lock quickly.
 *
 * <p>Messages are kept as {@link Message} values (a {@code byte[]} payload), so one message can
 * wait in many queues without reference counting; each delivery wraps it in a fresh
 * {@link MqttPublish}.
 */
final class MqttSessions {

    private static final InternalLogger LOG = InternalLogger.get(MqttSessions.class);
    /** A Session Expiry Interval of 0xFFFFFFFF: the session never expires (5.0 section 3.1.2.11.2). */
    static final long NEVER_EXPIRES = 0xffff_ffffL;

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
     * One client's session: its subscriptions, the QoS 1 and 2 messages sent and not yet
     * acknowledged (redelivered on reconnect, a QoS 2 one as its PUBREL once PUBREC came), the QoS 2
     * packet identifiers received and not yet released, and the queue of messages waiting for a send
     * window or for the client to come back. The queue is bounded: when full, new messages for this
     * client are dropped and counted.
     */
    static final class Session {
        final String clientId;
        final Map<String, MqttSubscription> subscriptions = new LinkedHashMap<>();
        final Map<String, Integer> subscriptionIds = new HashMap<>();
        final Map<Integer, Delivery> inFlight = new LinkedHashMap<>();
        /** Outgoing QoS 2 packet identifiers whose PUBREC came: PUBREL sent, PUBCOMP awaited. */
        final Set<Integer> released = new HashSet<>();
        /** Incoming QoS 2 packet identifiers not yet released by PUBREL: a duplicate is not forwarded twice. */
        final Set<Integer> qos2Received = new HashSet<>();
        final ArrayDeque<Delivery> queue = new ArrayDeque<>();
        /** The live connection, or null while the client is away. */
        Channel channel;
        MqttCodec codec;
        boolean v5;
        int receiveMaximum = 65_535;
        long expirySeconds;
        long dropped;
        /** While the client is away: the end of the session, and the will waiting for its delay. */
        private ScheduledFuture<?> expiryTimer;
        private Message pendingWill;
        private ScheduledFuture<?> willTimer;
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

    /** The sessions sharing one {@code $share/NAME/FILTER}: each matching message goes to one of them, in turn. */
    private static final class SharedGroup {
        final String filter;
        final List<Session> members = new ArrayList<>();
        int next;

        SharedGroup(String filter) {
            this.filter = filter;
        }

        /** The next member in turn, a connected one if there is any (5.0 section 4.8.2 leaves the choice to the server). */
        Session pick() {
            for (int i = 0; i < members.size(); i++) {
                Session s = members.get((next + i) % members.size());
                if (s.channel != null) {
                    next = (next + i + 1) % members.size();
                    return s;
                }
            }
            Session s = members.get(next % members.size());
            next = (next + 1) % members.size();
            return s;
        }
    }

    private final int maxQueued;
    private final Map<String, Session> sessions = new HashMap<>();
    private final Map<String, Message> retained = new HashMap<>();
    /** By the whole {@code $share/NAME/FILTER}. */
    private final Map<String, SharedGroup> shared = new LinkedHashMap<>();

    MqttSessions(int maxQueued) {
        this.maxQueued = maxQueued;
    }

    /**
     * Takes over or creates the session of {@code clientId}; returns it and whether one was present.
     * A new connection for the client cancels the end of its session and a will still waiting for its
     * delay (5.0 section 3.1.2.5).
     */
    synchronized Session open(String clientId, boolean cleanStart, Channel channel, MqttCodec codec, boolean[] present) {
        Session session = sessions.get(clientId);
        Channel previous = session == null ? null : session.channel;
        if (session != null) {
            cancelTimers(session);
            if (session.pendingWill != null) {
                logWillNotSent(clientId);
                session.pendingWill = null;
            }
        }
        if (session == null || cleanStart) {
            present[0] = false;
            if (session != null) {
                end(session);
            }
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

    /**
     * The connection of {@code session} ended. Its will, if any, is published now, or after its delay
     * if neither the session ends nor the client comes back first. The session ends now if it does not
     * outlive the connection, or after its Session Expiry Interval, timed on {@code timers}.
     */
    synchronized void closed(Session session, Channel channel, Message will, long willDelaySeconds, ScheduledExecutorService timers) {
        boolean takenOver = session.channel != channel;
        if (will != null && takenOver) {
            // The client's new connection came before this one's close was seen; it also set the
            // session's expiry anew, so only the will's own delay counts here.
            if (willDelaySeconds > 0) {
                logWillNotSent(session.clientId);
            } else {
                publish(will, session.clientId);
            }
        } else if (will != null) {
            long delay = Math.min(willDelaySeconds, session.expirySeconds);
            if (delay <= 0) {
                publish(will, session.clientId);
            } else {
                session.pendingWill = will;
                session.willTimer = timers.schedule(() -> willDelayElapsed(session), delay, TimeUnit.SECONDS);
            }
        }
        if (takenOver) {
            return;
        }
        session.channel = null;
        session.codec = null;
        if (session.expirySeconds == 0) {
            end(session);
        } else if (session.expirySeconds != NEVER_EXPIRES) {
            session.expiryTimer = timers.schedule(() -> expire(session), session.expirySeconds, TimeUnit.SECONDS);
        }
    }

    private static void logWillNotSent(String clientId) {
        LOG.info("The will of {} is not sent: the client is back within its Will Delay Interval", clientId);
    }

    private synchronized void willDelayElapsed(Session session) {
        Message will = session.pendingWill;
        session.pendingWill = null;
        if (will != null) {
            publish(will, session.clientId);
        }
    }

    private synchronized void expire(Session session) {
        if (session.channel == null && sessions.get(session.clientId) == session) {
            LOG.info("Session {} expired after {} s without a connection", session.clientId, session.expirySeconds);
            end(session);
        }
    }

    /** The session is over: forgotten, out of its shared groups, and its waiting will published (3.1.3.2.2). */
    private void end(Session session) {
        cancelTimers(session);
        sessions.remove(session.clientId, session);
        for (String filter : session.subscriptions.keySet()) {
            if (MqttTopics.isShared(filter)) {
                leaveShared(session, filter);
            }
        }
        Message will = session.pendingWill;
        session.pendingWill = null;
        if (will != null) {
            publish(will, session.clientId);
        }
    }

    private static void cancelTimers(Session session) {
        if (session.expiryTimer != null) {
            session.expiryTimer.cancel(false);
            session.expiryTimer = null;
        }
        if (session.willTimer != null) {
            session.willTimer.cancel(false);
            session.willTimer = null;
        }
    }

    /** Adds {@code session} to the group of the shared subscription {@code sharedFilter}, once. */
    synchronized void joinShared(Session session, String sharedFilter) {
        SharedGroup group = shared.computeIfAbsent(sharedFilter, f -> new SharedGroup(MqttTopics.sharedFilter(f)));
        if (!group.members.contains(session)) {
            group.members.add(session);
        }
    }

    /** Takes {@code session} out of the group of {@code sharedFilter}; the last one out removes the group. */
    synchronized void leaveShared(Session session, String sharedFilter) {
        SharedGroup group = shared.get(sharedFilter);
        if (group != null && group.members.remove(session) && group.members.isEmpty()) {
            shared.remove(sharedFilter);
        }
    }

    /**
     * Publishes {@code message}: stores or clears it if retained, and delivers it to every matching
     * subscription and to one session of every matching shared group. Returns the number of receivers.
     */
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
                if (MqttTopics.isShared(sub.filter()) || !MqttTopics.matches(sub.filter(), message.topic())
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
        for (Map.Entry<String, SharedGroup> e : shared.entrySet()) {
            SharedGroup group = e.getValue();
            if (!MqttTopics.matches(group.filter, message.topic())) {
                continue;
            }
            Session session = group.pick();
            MqttSubscription sub = session.subscriptions.get(e.getKey());
            Integer id = session.subscriptionIds.get(e.getKey());
            receivers++;
            enqueue(session, new Delivery(message, Math.min(sub.qos(), message.qos()), sub.retainAsPublished() && message.retain(),
                    id == null ? List.of() : List.of(id)));
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

    /** A PUBACK (QoS 1) or PUBCOMP (QoS 2) came: the message leaves the window, and the next queued ones may go. */
    synchronized void acknowledged(Session session, int packetId) {
        session.inFlight.remove(packetId);
        session.released.remove(packetId);
        drain(session);
    }

    /**
     * A PUBREC came for a QoS 2 message: answered with PUBREL, and the message stays in the window
     * until PUBCOMP; a PUBREC with an error reason ends it there (5.0 section 4.3.3).
     */
    synchronized void received(Session session, int packetId, int reasonCode) {
        Delivery d = session.inFlight.get(packetId);
        if (d == null || d.qos() != 2) {
            session.channel.writeAndFlush(new MqttPubAck(MqttPacketType.PUBREL, packetId,
                    session.v5 ? MqttReasonCode.PACKET_IDENTIFIER_NOT_FOUND : MqttReasonCode.SUCCESS, MqttProperties.NONE));
            return;
        }
        if (reasonCode >= MqttReasonCode.UNSPECIFIED_ERROR) {
            acknowledged(session, packetId);
            return;
        }
        session.released.add(packetId);
        session.channel.writeAndFlush(new MqttPubAck(MqttPacketType.PUBREL, packetId));
    }

    /** On reconnect: resend the unacknowledged messages with DUP, or their PUBREL if PUBREC came (4.4), then what queued meanwhile. */
    synchronized void resume(Session session) {
        for (Map.Entry<Integer, Delivery> e : session.inFlight.entrySet()) {
            if (session.released.contains(e.getKey())) {
                session.channel.writeAndFlush(new MqttPubAck(MqttPacketType.PUBREL, e.getKey()));
            } else {
                send(session, e.getValue(), e.getKey(), true);
            }
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
                return; // the client's Receive Maximum: wait for a PUBACK or PUBCOMP
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
