package io.rill.example;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.rill.channel.AttributeKey;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.ChannelOption;
import io.rill.channel.WriteBufferWaterMark;
import io.rill.channel.group.ChannelGroup;
import io.rill.channel.group.ChannelMatcher;
import io.rill.handler.codec.LineBasedFrameDecoder;
import io.rill.handler.codec.TooLongFrameException;
import io.rill.handler.codec.string.LineEncoder;
import io.rill.handler.codec.string.LineSeparator;
import io.rill.handler.codec.string.StringDecoder;
import io.rill.util.InternalLogger;

/**
 * A telnet-style chat room: every line a client sends goes to all the others. Try it with two
 * terminals running {@code nc 127.0.0.1 8080}. Commands: {@code /nick NAME}, {@code /who},
 * {@code /quit}.
 *
 * <p>The pipeline is the classic text stack: {@link LineBasedFrameDecoder} cuts the byte stream
 * into lines (bounded by {@code --max-line}), {@link StringDecoder} makes them strings, and
 * {@link LineEncoder} turns outbound strings back into CRLF-terminated lines.
 *
 * <p><b>Slow members.</b> Every line is queued for every other member; a member that does not read
 * would make its queue, and the server, grow for as long as the others talk. So each member's
 * outbound buffer has its high water mark at {@code --max-queued} bytes, and a member whose queue
 * passes it is disconnected, which the others are told and the log records.
 */
final class LineChatServer implements Example {

    @Override
    public String name() {
        return "line-chat-server";
    }

    static final ExampleOption MAX_LINE = ExampleOption.number("max-line", "BYTES", 1024, 16, 1 << 20,
            "longest line a member may send; a longer one is dropped with a notice to its sender");
    static final ExampleOption MAX_QUEUED = ExampleOption.number("max-queued", "BYTES", 1 << 20, 4096, 1 << 30,
            "most bytes of lines waiting for one member to read them; past it the member is disconnected");

    @Override
    public String description() {
        return "a chat room over text lines (try: nc HOST PORT in two terminals)";
    }

    @Override
    public List<ExampleOption> options() {
        return List.of(MAX_LINE, MAX_QUEUED);
    }

    @Override
    public List<String> limits() {
        return List.of("a line: --max-line bytes (longer ones are dropped, the sender told)",
                "lines waiting for one member: --max-queued bytes; a member that reads slower than the room talks"
                        + " is disconnected, the others told, the log says so");
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        ServerRunner.run(options, name(), initializer(options.intValue(MAX_LINE), options.intValue(MAX_QUEUED)));
    }

    /** The pipeline of one member, all members sharing one room; shared with the tests. */
    static ChannelInitializer<Channel> initializer(int maxLine, int maxQueued) {
        ChatRoom room = new ChatRoom(new ChannelGroup("chat"), maxQueued);
        WriteBufferWaterMark queueBound = new WriteBufferWaterMark(maxQueued / 2, maxQueued);
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.config().setOption(ChannelOption.WRITE_BUFFER_WATER_MARK, queueBound);
                ch.pipeline().addLast(new LineBasedFrameDecoder(maxLine),
                        new StringDecoder(StandardCharsets.UTF_8),
                        new LineEncoder(LineSeparator.WINDOWS, StandardCharsets.UTF_8),
                        room);
            }
        };
    }

    /** The room: one instance shared by every connection; the group holds who is in it. */
    @ChannelHandler.Sharable
    static final class ChatRoom implements ChannelHandler {
        private static final InternalLogger LOG = InternalLogger.get(ChatRoom.class);
        private static final AttributeKey<String> NICK = AttributeKey.valueOf("chat.nick");
        /** Set on a member disconnected for not reading: its farewell says so. */
        private static final AttributeKey<Boolean> TOO_SLOW = AttributeKey.valueOf("chat.tooSlow");

        private final ChannelGroup members;
        private final int maxQueued;

        ChatRoom(ChannelGroup members, int maxQueued) {
            this.members = members;
            this.maxQueued = maxQueued;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            Channel ch = ctx.channel();
            String nick = "guest-" + ch.id().asShortText();
            ch.attr(NICK).set(nick);
            members.add(ch); // the group forgets the channel by itself when it closes
            members.writeAndFlush("* " + nick + " joined", ChannelMatcher.isNot(ch));
            ctx.writeAndFlush("Welcome, " + nick + ". " + (members.size() - 1) + " other(s) here. /nick NAME, /who, /quit");
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            String nick = ctx.channel().attr(NICK).get();
            members.writeAndFlush(Boolean.TRUE.equals(ctx.channel().attr(TOO_SLOW).get())
                    ? "* " + nick + " was disconnected: more than " + maxQueued + " bytes of lines waited for it to read"
                    : "* " + nick + " left");
        }

        /**
         * The member's queue passed {@code --max-queued} (its high water mark): it reads slower than
         * the room talks. Holding on would cost memory without bound, so it goes.
         */
        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            Channel ch = ctx.channel();
            if (!ch.isWritable() && ch.isActive() && ch.attr(TOO_SLOW).setIfAbsent(Boolean.TRUE) == null) {
                LOG.info("Disconnecting {} ({}): more than {} bytes queued for it (--max-queued)",
                        ch.attr(NICK).get(), ch.remoteAddress(), maxQueued);
                ch.close();
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            String line = ((String) msg).strip();
            Channel ch = ctx.channel();
            String nick = ch.attr(NICK).get();
            if (line.isEmpty()) {
                return;
            }
            if (line.equals("/quit")) {
                ctx.writeAndFlush("Bye.").addListener(f -> ctx.close());
            } else if (line.equals("/who")) {
                StringBuilder who = new StringBuilder("Here:");
                for (Channel member : members) {
                    who.append(' ').append(member.attr(NICK).get());
                }
                ctx.writeAndFlush(who.toString());
            } else if (line.startsWith("/nick ") && line.length() > 6) {
                String newNick = line.substring(6).strip();
                ch.attr(NICK).set(newNick);
                members.writeAndFlush("* " + nick + " is now " + newNick);
            } else {
                members.writeAndFlush("<" + nick + "> " + line, ChannelMatcher.isNot(ch));
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof TooLongFrameException) {
                ctx.writeAndFlush("! line too long, ignored"); // the decoder skipped it; the chat goes on
                return;
            }
            LOG.debug("Closing {} after an error", ctx.channel(), cause);
            ctx.close();
        }
    }
}
