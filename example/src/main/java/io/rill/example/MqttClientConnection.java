package io.rill.example;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ChannelFactory;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.EventLoopGroup;
import io.rill.handler.codec.mqtt.MqttCodec;
import io.rill.handler.codec.mqtt.MqttConnAck;
import io.rill.handler.codec.mqtt.MqttConnect;
import io.rill.handler.codec.mqtt.MqttDisconnect;
import io.rill.handler.codec.mqtt.MqttPacketType;
import io.rill.handler.codec.mqtt.MqttPing;
import io.rill.handler.codec.mqtt.MqttProperties;
import io.rill.handler.codec.mqtt.MqttPubAck;
import io.rill.handler.codec.mqtt.MqttPublish;
import io.rill.handler.codec.mqtt.MqttReasonCode;
import io.rill.handler.codec.mqtt.MqttSubAck;
import io.rill.handler.codec.mqtt.MqttSubscribe;
import io.rill.handler.codec.mqtt.MqttSubscription;
import io.rill.handler.timeout.IdleStateEvent;
import io.rill.handler.timeout.IdleStateHandler;

/**
 * A small MQTT client over {@link MqttCodec}: connect, publish at QoS 0 or 1, subscribe, receive.
 * Each operation returns a future completed by the broker's answer (CONNACK, PUBACK, SUBACK); the
 * packet identifiers and the futures waiting on them live on the channel's event loop only, so
 * nothing is locked. A PINGREQ goes out whenever nothing was sent for a keep-alive interval.
 */
final class MqttClientConnection {

    private final Channel channel;
    private final Handler handler;

    private MqttClientConnection(Channel channel, Handler handler) {
        this.channel = channel;
        this.handler = handler;
    }

    /**
     * Connects, sends {@code connect} and waits up to 10 s for an accepting CONNACK.
     *
     * @param onMessage gets each PUBLISH received, on the event loop; it is released after the call
     * @throws IOException if the broker refuses or does not answer
     */
    static MqttClientConnection connect(EventLoopGroup group, ChannelFactory<? extends Channel> channelFactory, String host,
                                        int port, MqttConnect connect, Consumer<MqttPublish> onMessage) throws Exception {
        Handler handler = new Handler(onMessage);
        Channel ch = new Bootstrap().group(group).channelFactory(channelFactory).handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                if (connect.keepAliveSeconds() > 0) {
                    ch.pipeline().addLast(new IdleStateHandler(0, connect.keepAliveSeconds(), 0));
                }
                ch.pipeline().addLast(MqttCodec.client(connect.version()), handler);
            }
        }).connect(host, port).sync().getNow();
        ch.writeAndFlush(connect);
        MqttConnAck ack;
        try {
            ack = handler.connAck.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            ch.close();
            throw new IOException("no CONNACK from " + host + ":" + port, e);
        }
        if (ack.reasonCode() != 0) {
            ch.close();
            throw new IOException("the broker refused the connection: reason code 0x" + Integer.toHexString(ack.reasonCode()));
        }
        return new MqttClientConnection(ch, handler);
    }

    /** {@return the channel's close future, completed when the broker or the client ends the connection} */
    io.rill.util.concurrent.Future<Void> closeFuture() {
        return channel.closeFuture();
    }

    /** Publishes; the future completes when written (QoS 0), acknowledged by PUBACK (QoS 1) or by PUBCOMP (QoS 2). */
    CompletableFuture<Void> publish(String topic, byte[] payload, int qos, boolean retain, MqttProperties properties) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        channel.eventLoop().execute(() -> {
            int packetId = qos == 0 ? 0 : handler.nextPacketId();
            MqttPublish publish = new MqttPublish(topic, qos, retain, false, packetId, properties, Unpooled.wrappedBuffer(payload));
            if (qos > 0) {
                handler.waiting.put(packetId, done);
            }
            channel.writeAndFlush(publish).addListener(f -> {
                if (!f.isSuccess()) {
                    handler.waiting.remove(packetId);
                    done.completeExceptionally(f.cause());
                } else if (qos == 0) {
                    done.complete(null);
                }
            });
        });
        return done;
    }

    /** Subscribes to one filter; the future gets the SUBACK's reason codes. */
    CompletableFuture<List<Integer>> subscribe(MqttSubscription subscription, MqttProperties properties) {
        CompletableFuture<List<Integer>> done = new CompletableFuture<>();
        channel.eventLoop().execute(() -> {
            int packetId = handler.nextPacketId();
            handler.subscribing.put(packetId, done);
            channel.writeAndFlush(new MqttSubscribe(packetId, List.of(subscription), properties)).addListener(f -> {
                if (!f.isSuccess()) {
                    handler.subscribing.remove(packetId);
                    done.completeExceptionally(f.cause());
                }
            });
        });
        return done;
    }

    /** Sends DISCONNECT (the will is discarded) and closes, waiting up to 5 s. */
    void disconnect() {
        channel.writeAndFlush(MqttDisconnect.NORMAL).addListener(f -> channel.close());
        channel.closeFuture().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    private static final class Handler implements ChannelHandler {
        final CompletableFuture<MqttConnAck> connAck = new CompletableFuture<>();
        final Map<Integer, CompletableFuture<Void>> waiting = new HashMap<>();
        final Map<Integer, CompletableFuture<List<Integer>>> subscribing = new HashMap<>();
        private final Consumer<MqttPublish> onMessage;
        private int nextPacketId = 1;

        Handler(Consumer<MqttPublish> onMessage) {
            this.onMessage = onMessage;
        }

        int nextPacketId() {
            int id;
            do {
                id = nextPacketId;
                nextPacketId = nextPacketId == 65_535 ? 1 : nextPacketId + 1;
            } while (waiting.containsKey(id) || subscribing.containsKey(id));
            return id;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof MqttPublish publish) {
                try {
                    onMessage.accept(publish);
                    if (publish.qos() == 1) {
                        ctx.writeAndFlush(new MqttPubAck(MqttPacketType.PUBACK, publish.packetId()));
                    } else if (publish.qos() == 2) {
                        ctx.writeAndFlush(new MqttPubAck(MqttPacketType.PUBREC, publish.packetId()));
                    }
                } finally {
                    publish.release();
                }
            } else if (msg instanceof MqttConnAck ack) {
                connAck.complete(ack);
            } else if (msg instanceof MqttPubAck ack) {
                if (ack.type() == MqttPacketType.PUBACK || ack.type() == MqttPacketType.PUBCOMP) {
                    CompletableFuture<Void> done = waiting.remove(ack.packetId());
                    if (done != null) {
                        done.complete(null);
                    }
                } else if (ack.type() == MqttPacketType.PUBREC) {
                    // QoS 2, second step (5.0 section 4.3.3): release the message, then wait for PUBCOMP.
                    if (ack.reasonCode() >= MqttReasonCode.UNSPECIFIED_ERROR) {
                        CompletableFuture<Void> done = waiting.remove(ack.packetId());
                        if (done != null) {
                            done.completeExceptionally(new IllegalStateException(
                                    "the broker refused the message: reason 0x" + Integer.toHexString(ack.reasonCode())));
                        }
                    } else {
                        ctx.writeAndFlush(new MqttPubAck(MqttPacketType.PUBREL, ack.packetId()));
                    }
                } else if (ack.type() == MqttPacketType.PUBREL) {
                    ctx.writeAndFlush(new MqttPubAck(MqttPacketType.PUBCOMP, ack.packetId()));
                }
            } else if (msg instanceof MqttSubAck ack) {
                CompletableFuture<List<Integer>> done = subscribing.remove(ack.packetId());
                if (done != null) {
                    done.complete(ack.reasonCodes());
                }
            } else if (msg instanceof MqttDisconnect disconnect) {
                ctx.close();
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof IdleStateEvent) {
                ctx.writeAndFlush(MqttPing.REQUEST);
            } else {
                ctx.fireUserEventTriggered(evt);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            fail(cause);
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            fail(new IOException("connection closed"));
            ctx.fireChannelInactive();
        }

        private void fail(Throwable cause) {
            connAck.completeExceptionally(cause);
            waiting.values().forEach(f -> f.completeExceptionally(cause));
            subscribing.values().forEach(f -> f.completeExceptionally(cause));
            waiting.clear();
            subscribing.clear();
        }
    }
}
