package io.rill.example;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.rill.bootstrap.Bootstrap;
import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.MultiThreadIoEventLoopGroup;
import io.rill.handler.codec.redis.AggregateRedisMessage;
import io.rill.handler.codec.redis.BigNumberRedisMessage;
import io.rill.handler.codec.redis.BooleanRedisMessage;
import io.rill.handler.codec.redis.BulkErrorRedisMessage;
import io.rill.handler.codec.redis.DoubleRedisMessage;
import io.rill.handler.codec.redis.ErrorRedisMessage;
import io.rill.handler.codec.redis.FullBulkStringRedisMessage;
import io.rill.handler.codec.redis.IntegerRedisMessage;
import io.rill.handler.codec.redis.NullRedisMessage;
import io.rill.handler.codec.redis.RedisAggregateType;
import io.rill.handler.codec.redis.RedisAggregator;
import io.rill.handler.codec.redis.RedisDecoder;
import io.rill.handler.codec.redis.RedisEncoder;
import io.rill.handler.codec.redis.RedisMessage;
import io.rill.handler.codec.redis.SimpleStringRedisMessage;
import io.rill.handler.codec.redis.VerbatimStringRedisMessage;
import io.rill.util.concurrent.DefaultPromise;
import io.rill.util.concurrent.Promise;

/**
 * Sends one command to a Redis server and prints the reply the way {@code redis-cli} does on a
 * terminal: {@code OK}, {@code (integer) 1}, {@code "value"}, {@code (nil)}, numbered array
 * elements, {@code 1# "key" => value} for a map. With {@code --resp3} it says {@code HELLO 3}
 * first, so RESP3 replies (maps, doubles, booleans, pushes) come back as such.
 */
final class RedisClient implements Example {

    private static final ExampleOption RESP3 = ExampleOption.flag("resp3", "say HELLO 3 first: RESP3 replies");
    private static final ExampleOption TIMEOUT = ExampleOption.number("timeout", "SECONDS", 10, 1, 3600,
            "how long to wait for the reply");

    @Override
    public String name() {
        return "redis-client";
    }

    @Override
    public String description() {
        return "sends one command to a Redis server and prints the reply like redis-cli (try: --port 6379 --resp3 HELLO)";
    }

    @Override
    public List<ExampleOption> options() {
        return List.of(RESP3, TIMEOUT);
    }

    @Override
    public List<String> limits() {
        return List.of("a reply is read within RedisLimits.DEFAULT: bulk strings up to 64 MiB, 1 Mi elements per"
                + " aggregate, nesting 32 deep, 64 MiB per reply; it waits --timeout seconds at most");
    }

    @Override
    public String arguments() {
        return "COMMAND [ARG ...]";
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        List<String> words = options.arguments();
        if (words.isEmpty()) {
            throw new ExampleOptions.UsageException("no command given");
        }
        boolean resp3 = options.flag(RESP3);
        MultiThreadIoEventLoopGroup group = Transports.newGroup(options, name());
        try {
            Promise<String> reply = new DefaultPromise<>(group.next());
            Channel ch = new Bootstrap().group(group).channelFactory(Transports.clientChannel(options))
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel c) {
                            c.pipeline().addLast(new RedisDecoder(), new RedisAggregator(), RedisEncoder.INSTANCE,
                                    new OneReply(resp3, reply));
                        }
                    })
                    .connect(options.host, options.port).sync().getNow();
            if (resp3) {
                ch.write(AggregateRedisMessage.command("HELLO", "3"));
            }
            ch.writeAndFlush(AggregateRedisMessage.command(words.toArray(String[]::new)));
            if (!reply.await(options.intValue(TIMEOUT), TimeUnit.SECONDS)) {
                ch.close();
                throw new IllegalStateException("no reply within " + options.intValue(TIMEOUT) + " s");
            }
            ch.close().sync();
            System.out.print(reply.getNow());
            System.out.flush();
            if (!reply.isSuccess()) {
                throw new IllegalStateException("no reply: " + reply.cause(), reply.cause());
            }
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        }
    }

    /** Skips HELLO's reply when it asked for RESP3, then formats the first reply and completes. */
    private static final class OneReply implements ChannelHandler {
        private final Promise<String> reply;
        private boolean skipHello;

        OneReply(boolean skipHello, Promise<String> reply) {
            this.skipHello = skipHello;
            this.reply = reply;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (skipHello) {
                    skipHello = false;
                    if (msg instanceof ErrorRedisMessage error) {
                        reply.tryFailure(new IllegalStateException("HELLO 3 refused: " + error.content()));
                    }
                    return;
                }
                StringBuilder out = new StringBuilder();
                format((RedisMessage) msg, "", out);
                reply.trySuccess(out.toString());
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            reply.tryFailure(new IllegalStateException("the server closed the connection"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            reply.tryFailure(cause);
            ctx.close();
        }
    }

    /** Appends {@code m} as redis-cli prints it, nested elements indented under their number. */
    static void format(RedisMessage m, String indent, StringBuilder out) {
        if (m instanceof AggregateRedisMessage aggregate) {
            formatAggregate(aggregate, indent, out);
            return;
        }
        if (m instanceof SimpleStringRedisMessage s) {
            out.append(s.content());
        } else if (m instanceof ErrorRedisMessage e) {
            out.append("(error) ").append(e.content());
        } else if (m instanceof BulkErrorRedisMessage e) {
            out.append("(error) ").append(e.content());
        } else if (m instanceof IntegerRedisMessage i) {
            out.append("(integer) ").append(i.value());
        } else if (m instanceof FullBulkStringRedisMessage b) {
            quote(b.content(), out);
        } else if (m instanceof NullRedisMessage) {
            out.append("(nil)");
        } else if (m instanceof DoubleRedisMessage d) {
            double v = d.value();
            out.append("(double) ").append(v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v)
                    : Double.isNaN(v) ? "nan" : Double.isInfinite(v) ? (v > 0 ? "inf" : "-inf") : Double.toString(v));
        } else if (m instanceof BooleanRedisMessage b) {
            out.append(b.value() ? "(true)" : "(false)");
        } else if (m instanceof BigNumberRedisMessage n) {
            out.append("(big number) ").append(n.digits());
        } else if (m instanceof VerbatimStringRedisMessage v) {
            out.append(v.text());
        } else {
            out.append(m);
        }
        out.append('\n');
    }

    private static void formatAggregate(AggregateRedisMessage aggregate, String indent, StringBuilder out) {
        List<RedisMessage> children = aggregate.children();
        RedisAggregateType type = aggregate.type();
        if (children.isEmpty()) {
            out.append(switch (type) {
                case MAP, ATTRIBUTE -> "(empty hash)";
                case SET -> "(empty set)";
                default -> "(empty array)";
            }).append('\n');
            return;
        }
        boolean pairs = type.elementsPerEntry() == 2;
        int entries = children.size() / type.elementsPerEntry();
        int width = Integer.toString(entries).length();
        char mark = switch (type) {
            case MAP -> '#';
            case SET -> '~';
            case ATTRIBUTE -> '|';
            default -> ')';
        };
        for (int i = 0; i < entries; i++) {
            String number = String.format("%" + width + "d%c ", i + 1, mark);
            out.append(i == 0 ? "" : indent).append(number);
            String inner = indent + " ".repeat(number.length());
            if (pairs) {
                StringBuilder key = new StringBuilder();
                format(children.get(2 * i), inner, key);
                out.append(key, 0, key.length() - 1).append(" => ");
                format(children.get(2 * i + 1), inner + " ".repeat(key.length() + 3), out);
            } else {
                format(children.get(i), inner, out);
            }
        }
    }

    /** A bulk string in double quotes, escaped as redis-cli escapes it. */
    private static void quote(ByteBuf content, StringBuilder out) {
        out.append('"');
        byte[] bytes = new byte[content.readableBytes()];
        content.getBytes(content.readerIndex(), bytes);
        String text = new String(bytes, StandardCharsets.UTF_8);
        boolean utf8 = java.util.Arrays.equals(text.getBytes(StandardCharsets.UTF_8), bytes);
        if (utf8) {
            text.codePoints().forEach(c -> escape(c, out));
        } else {
            for (byte b : bytes) {
                escape(b & 0xff, out);
            }
        }
        out.append('"');
    }

    private static void escape(int c, StringBuilder out) {
        switch (c) {
            case '\\' -> out.append("\\\\");
            case '"' -> out.append("\\\"");
            case '\n' -> out.append("\\n");
            case '\r' -> out.append("\\r");
            case '\t' -> out.append("\\t");
            case 7 -> out.append("\\a");
            case '\b' -> out.append("\\b");
            default -> {
                if (c < 0x20 || c == 0x7f || c > 0x7f && c < 0x100 && !Character.isLetterOrDigit(c)) {
                    out.append(String.format("\\x%02x", c));
                } else {
                    out.appendCodePoint(c);
                }
            }
        }
    }
}
