package io.rill.example;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.handler.codec.redis.AggregateRedisMessage;
import io.rill.handler.codec.redis.ErrorRedisMessage;
import io.rill.handler.codec.redis.FullBulkStringRedisMessage;
import io.rill.handler.codec.redis.IntegerRedisMessage;
import io.rill.handler.codec.redis.NullRedisMessage;
import io.rill.handler.codec.redis.RedisAggregateType;
import io.rill.handler.codec.redis.RedisAggregator;
import io.rill.handler.codec.redis.RedisCodecException;
import io.rill.handler.codec.redis.RedisDecoder;
import io.rill.handler.codec.redis.RedisEncoder;
import io.rill.handler.codec.redis.RedisLimits;
import io.rill.handler.codec.redis.RedisMessage;
import io.rill.handler.codec.redis.SimpleStringRedisMessage;

/**
 * A small in-memory Redis: GET, SET (NX, XX), DEL, EXISTS, INCR, PING, ECHO, HELLO 2|3, SELECT 0,
 * DBSIZE, FLUSHALL, QUIT, and just enough of COMMAND, CONFIG GET and CLIENT for {@code redis-cli}
 * and {@code redis-benchmark} to start. RESP3 after {@code HELLO 3}; inline commands for telnet.
 * Commands are answered in order as they are decoded; the answers of one read are encoded into one
 * buffer ({@link RedisEncoder#write}) and go out in one write and flush, rather than a buffer and an
 * outbound entry each: with {@code redis-benchmark -P 16} a read holds many commands.
 *
 * <p>Per request it allocates little: {@link RedisCommandReader} reads commands in place ahead of the
 * generic decoder, GET and SET touch the store directly (a key string, and SET's value bytes), and
 * replies are written into the read's answer buffer from constants or straight from the stored bytes.
 */
final class RedisServer implements Example {

    private static final ExampleOption MAX_KEYS = ExampleOption.number("max-keys", "N", 1_000_000, 1, Integer.MAX_VALUE,
            "keys the store holds at most; a SET of one more is refused with -OOM");
    private static final ExampleOption MAX_VALUE = ExampleOption.number("max-value-bytes", "BYTES", 1 << 20, 16,
            64 << 20, "the longest key or value (and bulk string) a client may send");

    @Override
    public String name() {
        return "redis-server";
    }

    @Override
    public String description() {
        return "an in-memory Redis (GET/SET/DEL/INCR/HELLO 3...) that redis-cli and redis-benchmark drive (try: --port 6379)";
    }

    @Override
    public List<ExampleOption> options() {
        return List.of(MAX_KEYS, MAX_VALUE);
    }

    @Override
    public List<String> limits() {
        return List.of("keys: at most --max-keys; a key or value at most --max-value-bytes; a command at most"
                + " 4 x --max-value-bytes, 1 Mi arguments, an inline command 64 KiB (RedisLimits)",
                "commands are answered as they arrive; " + ServerRunner.READING_LIMIT,
                "malformed input: -ERR Protocol error, then the connection closes");
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        int maxValue = options.intValue(MAX_VALUE);
        RedisLimits limits = RedisLimits.DEFAULT.withMaxBulkLength(maxValue).withMaxMessageBytes(4L * maxValue);
        Store store = new Store(options.intValue(MAX_KEYS));
        ServerRunner.run(options, name(), new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                Session session = new Session(store);
                ch.pipeline().addLast(new RedisCommandReader(session, limits), new RedisDecoder(limits, true),
                        new RedisAggregator(limits), RedisEncoder.INSTANCE, session);
            }
        });
    }

    /** The keys and values, shared by every connection. */
    static final class Store {
        final ConcurrentHashMap<RedisKey, byte[]> map = new ConcurrentHashMap<>();
        final int maxKeys;

        Store(int maxKeys) {
            this.maxKeys = maxKeys;
        }
    }

    /** One connection: its protocol version, and the commands it sends. */
    static final class Session implements ChannelHandler {
        private static final ErrorRedisMessage WRONG_TYPE_INT = new ErrorRedisMessage(
                "ERR value is not an integer or out of range");
        private static final ErrorRedisMessage SYNTAX = new ErrorRedisMessage("ERR syntax error");
        private static final ErrorRedisMessage OOM = new ErrorRedisMessage(
                "OOM command not allowed: the store holds --max-keys keys");

        private final Store store;
        /** The key of the GET or SET being served; this connection's thread alone refills it. */
        private final RedisKey probe = RedisKey.probe();
        /** 2 or 3, as HELLO chose. */
        private int protocol = 2;
        /** The answers of this read, encoded, not yet written; null when there are none. */
        private ByteBuf answers;
        /** This handler's context, for the commands {@link RedisCommandReader} hands over. */
        private ChannelHandlerContext ctx;

        Session(Store store) {
            this.store = store;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        /**
         * A command {@link RedisCommandReader} read in place: word i is {@code lengths[i]} bytes at
         * {@code starts[i]} of {@code in}, which stays the caller's. GET and plain SET are served here;
         * the rest as an aggregate, as the generic path would have made it.
         */
        void command(ByteBuf in, int[] starts, int[] lengths, int count) {
            if (count == 2 && is(in, starts[0], lengths[0], GET)) {
                byte[] value = store.map.get(probe.refill(in, starts[1], lengths[1]));
                if (value == null) {
                    answer(ctx, nil());
                } else {
                    ByteBuf out = answers(value.length + 16);
                    out.writeByte('$');
                    writeDecimal(out, value.length);
                    out.writeShort(CRLF).writeBytes(value).writeShort(CRLF);
                }
                return;
            }
            if (count == 3 && is(in, starts[0], lengths[0], SET)) {
                byte[] value = new byte[lengths[2]];
                in.getBytes(starts[2], value);
                RedisKey key = probe.refill(in, starts[1], lengths[1]);
                // An overwrite keeps the stored key: no copy of it is made.
                answer(ctx, store.map.replace(key, value) != null ? SimpleStringRedisMessage.OK : put(key.copy(), value));
                return;
            }
            List<RedisMessage> words = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                words.add(new FullBulkStringRedisMessage(in.retainedSlice(starts[i], lengths[i])));
            }
            channelRead(ctx, new AggregateRedisMessage(RedisAggregateType.ARRAY, words));
        }

        private static final byte[] GET = {'G', 'E', 'T'};
        private static final byte[] SET = {'S', 'E', 'T'};
        private static final int CRLF = ('\r' << 8) | '\n';

        /** Whether the word is {@code upper}, in any case. */
        private static boolean is(ByteBuf in, int start, int length, byte[] upper) {
            if (length != upper.length) {
                return false;
            }
            for (int i = 0; i < length; i++) {
                if ((in.getByte(start + i) & ~0x20) != upper[i]) {
                    return false;
                }
            }
            return true;
        }

        private static void writeDecimal(ByteBuf out, int value) {
            if (value >= 10) {
                writeDecimal(out, value / 10);
            }
            out.writeByte('0' + value % 10);
        }

        private ByteBuf answers(int room) {
            if (answers == null) {
                answers = ctx.alloc().ioBuffer(room + 256);
            }
            return answers;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                RedisMessage reply = msg instanceof AggregateRedisMessage command && command.type() == RedisAggregateType.ARRAY
                        ? execute(ctx, command)
                        : new ErrorRedisMessage("ERR Protocol error: expected a command (an array of bulk strings)");
                if (reply != null) {
                    answer(ctx, reply);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        private void answer(ChannelHandlerContext ctx, RedisMessage reply) {
            try {
                RedisEncoder.write(reply, answers(RedisEncoder.encodedSize(reply)));
            } finally {
                ReferenceCountUtil.release(reply);
            }
        }

        /** Writes the answers encoded so far, ahead of whatever goes next. */
        private void writeAnswers(ChannelHandlerContext ctx) {
            if (answers != null) {
                ctx.write(answers, ctx.voidPromise());
                answers = null;
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            writeAnswers(ctx);
            ctx.flush();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (answers != null) {
                answers.release();
                answers = null;
            }
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            writeAnswers(ctx);
            if (cause instanceof RedisCodecException && ctx.channel().isActive()) {
                String why = cause.getMessage().replace('\r', ' ').replace('\n', ' ');
                ctx.writeAndFlush(new ErrorRedisMessage("ERR Protocol error: " + why));
            }
            ctx.close();
        }

        private RedisMessage execute(ChannelHandlerContext ctx, AggregateRedisMessage command) {
            List<RedisMessage> words = command.children();
            if (words.isEmpty()) {
                return null; // Redis ignores an empty command
            }
            for (RedisMessage word : words) {
                if (!(word instanceof FullBulkStringRedisMessage)) {
                    return new ErrorRedisMessage("ERR Protocol error: expected bulk strings");
                }
            }
            String name = text(words, 0).toUpperCase(Locale.ROOT);
            int args = words.size() - 1;
            switch (name) {
                case "GET":
                    if (args != 1) {
                        return arity(name);
                    }
                    byte[] value = store.map.get(key(words, 1));
                    return value == null ? nil() : new FullBulkStringRedisMessage(Unpooled.wrappedBuffer(value));
                case "SET":
                    return set(words);
                case "DEL":
                case "EXISTS":
                    if (args < 1) {
                        return arity(name);
                    }
                    long n = 0;
                    for (int i = 1; i <= args; i++) {
                        n += (name.equals("DEL") ? store.map.remove(key(words, i)) : store.map.get(key(words, i))) != null ? 1 : 0;
                    }
                    return IntegerRedisMessage.of(n);
                case "INCR":
                    return args == 1 ? incr(key(words, 1)) : arity(name);
                case "PING":
                    return args == 0 ? SimpleStringRedisMessage.PONG : args == 1 ? bulk(words, 1) : arity(name);
                case "ECHO":
                    return args == 1 ? bulk(words, 1) : arity(name);
                case "HELLO":
                    return hello(words);
                case "SELECT":
                    return args == 1 && text(words, 1).equals("0") ? SimpleStringRedisMessage.OK
                            : new ErrorRedisMessage("ERR DB index is out of range");
                case "DBSIZE":
                    return IntegerRedisMessage.of(store.map.size());
                case "FLUSHALL":
                case "FLUSHDB":
                    store.map.clear();
                    return SimpleStringRedisMessage.OK;
                case "COMMAND":
                    // redis-cli asks for COMMAND DOCS to offer hints; none is a valid answer.
                    return args >= 1 && text(words, 1).equalsIgnoreCase("COUNT") ? IntegerRedisMessage.of(16)
                            : aggregate(protocol == 3 && args >= 1 && text(words, 1).equalsIgnoreCase("DOCS")
                                    ? RedisAggregateType.MAP : RedisAggregateType.ARRAY, new ArrayList<>());
                case "CONFIG":
                    return config(words);
                case "CLIENT":
                    return SimpleStringRedisMessage.OK; // SETNAME, SETINFO: accepted, not kept
                case "QUIT":
                    writeAnswers(ctx);
                    ctx.writeAndFlush(SimpleStringRedisMessage.OK).addListener(f -> ctx.close());
                    return null;
                default:
                    return new ErrorRedisMessage("ERR unknown command '" + printable(name) + "'");
            }
        }

        private RedisMessage set(List<RedisMessage> words) {
            if (words.size() < 3) {
                return arity("SET");
            }
            boolean nx = false;
            boolean xx = false;
            for (int i = 3; i < words.size(); i++) {
                String option = text(words, i).toUpperCase(Locale.ROOT);
                if (option.equals("NX")) {
                    nx = true;
                } else if (option.equals("XX")) {
                    xx = true;
                } else {
                    return SYNTAX;
                }
            }
            if (nx && xx) {
                return SYNTAX;
            }
            RedisKey key = key(words, 1);
            byte[] value = bytes(words, 2);
            if (!nx && !xx) {
                return put(key, value);
            }
            if (xx) {
                return store.map.replace(key, value) != null ? SimpleStringRedisMessage.OK : nil();
            }
            if (!store.map.containsKey(key) && store.map.size() >= store.maxKeys) {
                return OOM;
            }
            if (nx) {
                return store.map.putIfAbsent(key, value) == null ? SimpleStringRedisMessage.OK : nil();
            }
            store.map.put(key, value);
            return SimpleStringRedisMessage.OK;
        }

        /** A plain SET: stored unless the store is full and the key new. */
        private RedisMessage put(RedisKey key, byte[] value) {
            if (store.map.size() >= store.maxKeys && !store.map.containsKey(key)) {
                return OOM;
            }
            store.map.put(key, value);
            return SimpleStringRedisMessage.OK;
        }

        private RedisMessage incr(RedisKey key) {
            RedisMessage[] reply = new RedisMessage[1];
            if (!store.map.containsKey(key) && store.map.size() >= store.maxKeys) {
                return OOM;
            }
            store.map.compute(key, (k, old) -> {
                long value;
                try {
                    value = old == null ? 0 : Long.parseLong(new String(old, StandardCharsets.ISO_8859_1));
                } catch (NumberFormatException e) {
                    reply[0] = WRONG_TYPE_INT;
                    return old;
                }
                if (value == Long.MAX_VALUE) {
                    reply[0] = new ErrorRedisMessage("ERR increment or decrement would overflow");
                    return old;
                }
                reply[0] = IntegerRedisMessage.of(value + 1);
                return Long.toString(value + 1).getBytes(StandardCharsets.ISO_8859_1);
            });
            return reply[0];
        }

        private RedisMessage hello(List<RedisMessage> words) {
            if (words.size() >= 2) {
                String version = text(words, 1);
                if (!version.equals("2") && !version.equals("3")) {
                    return new ErrorRedisMessage("NOPROTO unsupported protocol version");
                }
                protocol = version.charAt(0) - '0';
            }
            List<RedisMessage> fields = new ArrayList<>();
            addField(fields, "server", FullBulkStringRedisMessage.of("rill-redis-example"));
            addField(fields, "version", FullBulkStringRedisMessage.of("7.0.0"));
            addField(fields, "proto", IntegerRedisMessage.of(protocol));
            addField(fields, "id", IntegerRedisMessage.of(1));
            addField(fields, "mode", FullBulkStringRedisMessage.of("standalone"));
            addField(fields, "role", FullBulkStringRedisMessage.of("master"));
            addField(fields, "modules", aggregate(RedisAggregateType.ARRAY, new ArrayList<>()));
            return aggregate(RedisAggregateType.MAP, fields);
        }

        private RedisMessage config(List<RedisMessage> words) {
            if (words.size() < 3 || !text(words, 1).equalsIgnoreCase("GET")) {
                return new ErrorRedisMessage("ERR only CONFIG GET is supported");
            }
            List<RedisMessage> fields = new ArrayList<>();
            for (int i = 2; i < words.size(); i++) {
                String parameter = text(words, i).toLowerCase(Locale.ROOT);
                switch (parameter) {
                    case "save" -> addField(fields, parameter, FullBulkStringRedisMessage.of(""));
                    case "appendonly" -> addField(fields, parameter, FullBulkStringRedisMessage.of("no"));
                    case "databases" -> addField(fields, parameter, FullBulkStringRedisMessage.of("1"));
                    default -> {
                        // unknown parameters match nothing, as a pattern would
                    }
                }
            }
            return aggregate(RedisAggregateType.MAP, fields);
        }

        private static void addField(List<RedisMessage> fields, String name, RedisMessage value) {
            fields.add(FullBulkStringRedisMessage.of(name));
            fields.add(value);
        }

        /** A map, or under RESP2 the flat array of its keys and values that Redis sends instead. */
        private RedisMessage aggregate(RedisAggregateType type, List<RedisMessage> children) {
            return new AggregateRedisMessage(protocol == 2 && type == RedisAggregateType.MAP ? RedisAggregateType.ARRAY
                    : type, children);
        }

        private RedisMessage nil() {
            return protocol == 3 ? NullRedisMessage.NULL : NullRedisMessage.NULL_BULK_STRING;
        }

        private static ErrorRedisMessage arity(String name) {
            return new ErrorRedisMessage("ERR wrong number of arguments for '" + name.toLowerCase(Locale.ROOT) + "' command");
        }

        private static ByteBuf content(List<RedisMessage> words, int i) {
            return ((FullBulkStringRedisMessage) words.get(i)).content();
        }

        private static String text(List<RedisMessage> words, int i) {
            return content(words, i).toString(StandardCharsets.UTF_8);
        }

        private static RedisKey key(List<RedisMessage> words, int i) {
            ByteBuf c = content(words, i);
            return RedisKey.of(c, c.readerIndex(), c.readableBytes());
        }

        private static byte[] bytes(List<RedisMessage> words, int i) {
            ByteBuf c = content(words, i);
            byte[] b = new byte[c.readableBytes()];
            c.getBytes(c.readerIndex(), b);
            return b;
        }

        private static RedisMessage bulk(List<RedisMessage> words, int i) {
            return new FullBulkStringRedisMessage(Unpooled.wrappedBuffer(bytes(words, i)));
        }

        private static String printable(String s) {
            String cut = s.length() > 64 ? s.substring(0, 64) : s;
            return cut.replaceAll("[^\\x20-\\x7e]", "?").replace('\'', '?');
        }
    }
}
