package io.rill.example;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.stomp.StompCommand;
import io.rill.handler.codec.stomp.StompDecoderException;
import io.rill.handler.codec.stomp.StompFrame;
import io.rill.handler.codec.stomp.StompFrameDecoder;
import io.rill.handler.codec.stomp.StompFrameEncoder;
import io.rill.handler.codec.stomp.StompHeartBeatHeader;
import io.rill.handler.codec.stomp.StompHeartbeat;
import io.rill.handler.timeout.IdleState;
import io.rill.handler.timeout.IdleStateEvent;
import io.rill.handler.timeout.IdleStateHandler;

/**
 * A small in-memory STOMP 1.2 broker: CONNECT or STOMP, SUBSCRIBE and UNSUBSCRIBE by destination,
 * SEND delivered as MESSAGE to every subscription of that destination (at most once, acknowledged
 * automatically: ACK and NACK are accepted and change nothing), RECEIPT for any frame that asks,
 * DISCONNECT, and heart-beats negotiated from the client's {@code heart-beat} header (the broker
 * offers and wants {@code --heart-beat-ms}; a client silent for twice the agreed interval is
 * closed). Bad frames get an ERROR frame and the close. A subscriber that reads too slowly (more
 * than {@code --max-queued-bytes} waiting for it) gets an ERROR and is closed rather than let its
 * backlog grow without bound.
 */
final class StompBroker implements Example {

    private static final ExampleOption MAX_BODY = ExampleOption.number("max-body-bytes", "BYTES", 1 << 20, 0, 64 << 20,
            "the largest message body a client may send");
    private static final ExampleOption MAX_QUEUED = ExampleOption.number("max-queued-bytes", "BYTES", 4 << 20, 65_536,
            1 << 30, "what may wait for one slow subscriber before it is closed");
    private static final ExampleOption HEART_BEAT = ExampleOption.number("heart-beat-ms", "MS", 10_000, 100, 3_600_000,
            "the heart-beat interval the broker can send at and wants from clients (CONNECTED's heart-beat header)");
    private static final int MAX_SUBSCRIPTIONS = 256;
    /** SEND headers about the SEND frame itself, not passed on to the MESSAGE. */
    private static final Set<String> FRAME_HEADERS = Set.of("destination", "receipt", "content-length", "transaction",
            "subscription", "message-id");

    @Override
    public String name() {
        return "stomp-broker";
    }

    @Override
    public String description() {
        return "an in-memory STOMP 1.2 broker (SEND, SUBSCRIBE, RECEIPT) for stomp.py and other clients";
    }

    @Override
    public List<ExampleOption> options() {
        return List.of(MAX_BODY, MAX_QUEUED, HEART_BEAT);
    }

    @Override
    public List<String> limits() {
        return List.of("frames: lines 8 KiB, 64 headers, bodies --max-body-bytes (1 MiB); " + MAX_SUBSCRIPTIONS
                        + " subscriptions per connection",
                "a subscriber with more than --max-queued-bytes (4 MiB) waiting for it is closed with an ERROR frame",
                "heart-beats: at most every --heart-beat-ms (10 s) each way; a client silent for twice the agreed interval is closed",
                "malformed frames: an ERROR frame, then the close");
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        Destinations destinations = new Destinations();
        int maxBody = options.intValue(MAX_BODY);
        long maxQueued = options.intValue(MAX_QUEUED);
        int heartBeat = options.intValue(HEART_BEAT);
        StompHeartBeatHeader offered = new StompHeartBeatHeader(heartBeat, heartBeat);
        ServerRunner.run(options, name(), new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new StompFrameDecoder(StompFrameDecoder.DEFAULT_MAX_LINE_LENGTH,
                        StompFrameDecoder.DEFAULT_MAX_HEADERS, maxBody), StompFrameEncoder.INSTANCE,
                        new Session(destinations, maxQueued, offered));
            }
        });
    }

    /** The subscriptions of every connection, by destination. */
    static final class Destinations {
        final Map<String, Set<Subscription>> byName = new ConcurrentHashMap<>();
        final AtomicLong messageIds = new AtomicLong();

        void add(Subscription s) {
            byName.computeIfAbsent(s.destination(), d -> ConcurrentHashMap.newKeySet()).add(s);
        }

        void remove(Subscription s) {
            byName.computeIfPresent(s.destination(), (d, set) -> {
                set.remove(s);
                return set.isEmpty() ? null : set;
            });
        }
    }

    record Subscription(Channel channel, String id, String destination) {
    }

    /** One client connection. */
    static final class Session implements ChannelHandler {
        private final Destinations destinations;
        private final long maxQueued;
        private final StompHeartBeatHeader offered;
        private final Map<String, Subscription> subscriptions = new HashMap<>();
        private boolean connected;
        private long expectedEveryMillis;

        Session(Destinations destinations, long maxQueued, StompHeartBeatHeader offered) {
            this.destinations = destinations;
            this.maxQueued = maxQueued;
            this.offered = offered;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof StompFrame frame)) {
                ReferenceCountUtil.release(msg); // a heart-beat: it counted as a read for the idle check
                return;
            }
            try {
                handle(ctx, frame);
            } finally {
                frame.release();
            }
        }

        private void handle(ChannelHandlerContext ctx, StompFrame frame) {
            StompCommand command = frame.command();
            if (!connected && command != StompCommand.CONNECT && command != StompCommand.STOMP) {
                error(ctx, "CONNECT first", "a " + command + " frame before CONNECT");
                return;
            }
            switch (command) {
                case CONNECT, STOMP -> {
                    String versions = frame.header("accept-version");
                    if (versions != null && !List.of(versions.split(",")).contains("1.2")) {
                        error(ctx, "unsupported version", "this broker speaks STOMP 1.2; the client offers " + versions);
                        return;
                    }
                    StompHeartBeatHeader client = StompHeartBeatHeader.parse(frame.header("heart-beat"));
                    long sendEvery = offered.sendInterval(client);
                    expectedEveryMillis = client.sendInterval(offered);
                    if (sendEvery > 0 || expectedEveryMillis > 0) {
                        // Twice the agreed interval before a client counts as gone, for the network's delays
                        // (the specification leaves the margin to the receiver).
                        ctx.pipeline().addFirst(new IdleStateHandler(2 * expectedEveryMillis, sendEvery, 0, TimeUnit.MILLISECONDS));
                    }
                    connected = true;
                    ctx.writeAndFlush(StompFrame.of(StompCommand.CONNECTED, "version", "1.2", "heart-beat", offered.toString(),
                            "server", "rill-stomp-broker"));
                    return;
                }
                case SUBSCRIBE -> {
                    String id = frame.header("id");
                    String destination = frame.header("destination");
                    if (id == null || destination == null) {
                        error(ctx, "SUBSCRIBE needs id and destination", frame.toString());
                        return;
                    }
                    if (subscriptions.size() >= MAX_SUBSCRIPTIONS && !subscriptions.containsKey(id)) {
                        error(ctx, "too many subscriptions", "at most " + MAX_SUBSCRIPTIONS + " per connection");
                        return;
                    }
                    Subscription s = new Subscription(ctx.channel(), id, destination);
                    Subscription old = subscriptions.put(id, s);
                    if (old != null) {
                        destinations.remove(old);
                    }
                    destinations.add(s);
                }
                case UNSUBSCRIBE -> {
                    Subscription s = subscriptions.remove(String.valueOf(frame.header("id")));
                    if (s != null) {
                        destinations.remove(s);
                    }
                }
                case SEND -> {
                    String destination = frame.header("destination");
                    if (destination == null) {
                        error(ctx, "SEND needs a destination", frame.toString());
                        return;
                    }
                    deliver(frame, destination);
                }
                case DISCONNECT -> {
                    String receipt = frame.header("receipt");
                    if (receipt != null) {
                        ctx.writeAndFlush(StompFrame.of(StompCommand.RECEIPT, "receipt-id", receipt))
                                .addListener(f -> ctx.close());
                    } else {
                        ctx.close();
                    }
                    return;
                }
                case ACK, NACK, BEGIN, COMMIT, ABORT -> {
                    // auto-acknowledged, no transactions: accepted as they are
                }
                default -> {
                    error(ctx, "not a client frame", "a " + command + " frame from a client");
                    return;
                }
            }
            String receipt = frame.header("receipt");
            if (receipt != null) {
                ctx.writeAndFlush(StompFrame.of(StompCommand.RECEIPT, "receipt-id", receipt));
            }
        }

        private void deliver(StompFrame send, String destination) {
            Set<Subscription> subscribers = destinations.byName.get(destination);
            if (subscribers == null) {
                return;
            }
            String messageId = Long.toString(destinations.messageIds.incrementAndGet());
            // The sender's own headers travel with the message; the broker's come first, so they win.
            List<Map.Entry<String, String>> passed = new ArrayList<>();
            for (Map.Entry<String, String> h : send.headers()) {
                if (!FRAME_HEADERS.contains(h.getKey())) {
                    passed.add(h);
                }
            }
            for (Subscription s : subscribers) {
                Channel ch = s.channel();
                if (ch.bytesBeforeWritable() > maxQueued) {
                    ch.writeAndFlush(StompFrame.of(StompCommand.ERROR, "message", "slow consumer"))
                            .addListener(f -> ch.close());
                    continue;
                }
                List<Map.Entry<String, String>> headers = new ArrayList<>(passed.size() + 3);
                headers.add(Map.entry("subscription", s.id()));
                headers.add(Map.entry("message-id", messageId));
                headers.add(Map.entry("destination", destination));
                headers.addAll(passed);
                ch.writeAndFlush(new StompFrame(StompCommand.MESSAGE, headers, send.content().retainedDuplicate()));
            }
        }

        private static void error(ChannelHandlerContext ctx, String message, String detail) {
            ctx.writeAndFlush(StompFrame.of(StompCommand.ERROR, Unpooled.copiedBuffer(detail, StandardCharsets.UTF_8),
                    "message", message, "content-type", "text/plain")).addListener(f -> ctx.close());
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof IdleStateEvent idle && idle.state() == IdleState.WRITER_IDLE) {
                ctx.writeAndFlush(StompHeartbeat.INSTANCE);
            } else if (evt instanceof IdleStateEvent idle && idle.state() == IdleState.READER_IDLE) {
                error(ctx, "heart-beat missed", "nothing from the client for " + 2 * expectedEveryMillis
                        + " ms, twice the agreed heart-beat interval");
            } else {
                ctx.fireUserEventTriggered(evt);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof StompDecoderException bad) {
                error(ctx, "malformed frame", bad.getMessage());
            } else {
                ctx.close();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            subscriptions.values().forEach(destinations::remove);
            subscriptions.clear();
            ctx.fireChannelInactive();
        }
    }
}
