package io.rill.example;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.rill.channel.AttributeKey;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
import io.rill.channel.group.ChannelGroup;
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
 * would make its queue, and the server, grow for as long as the others talk. So a member with
 * more than {@code --max-queued} bytes of lines waiting for it is disconnected, which the others
 * are told and the log records ({@link ChatDelivery}).
 */
final class LineChatServer implements Example {

    @Override
    public String name() {
        return "line-chat-server";
    }

    static final ExampleOption MAX_LINE = ExampleOption.number("max-line", "BYTES", 1024, 16, 1 << 20,
            "longest line a member may send; a longer one is dropped with a notice to its sender");
    static final ExampleOption MAX_QUEUED = ExampleOption.number("max-queued", "BYTES", 4 << 20, 1 << 20, 1 << 30,
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
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
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
        /** Set while lines this member said in the current read burst wait for the flush at its end. */
        private static final AttributeKey<Boolean> SAID = AttributeKey.valueOf("chat.said");

        private final ChannelGroup members;
        private final ChatDelivery delivery;

        ChatRoom(ChannelGroup members, int maxQueued) {
            this.members = members;
            this.delivery = new ChatDelivery(members, maxQueued);
        }

        static String nick(Channel member) {
            return member.attr(NICK).get();
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            Channel ch = ctx.channel();
            String nick = "guest-" + ch.id().asShortText();
            ch.attr(NICK).set(nick);
            int others;
            // Members join on several loops at once: joining and counting under one lock gives each
            // newcomer its own count (two joining together are not both told they are alone), and
            // the joins reach every member in that order.
            synchronized (this) {
                members.add(ch); // the group forgets the channel by itself when it closes
                others = members.size() - 1;
                delivery.broadcast(ctx.alloc(), "* " + nick + " joined", ch);
            }
            delivery.flush(ch);
            ctx.writeAndFlush("Welcome, " + nick + ". " + others + " other(s) here. /nick NAME, /who, /quit");
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            Channel ch = ctx.channel();
            delivery.broadcast(ctx.alloc(), ChatDelivery.wasTooSlow(ch)
                    ? "* " + nick(ch) + " was disconnected: more than " + delivery.maxQueued()
                            + " bytes of lines waited for it to read"
                    : "* " + nick(ch) + " left", ch);
            delivery.flush(ch);
        }

        /** The end of a read burst of this member: what it said goes out, in one flush per listener. */
        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            Channel ch = ctx.channel();
            if (ch.attr(SAID).getAndSet(null) != null) {
                delivery.flush(null); // the talker too, for a /nick notice
            }
            ctx.fireChannelReadComplete();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            String line = ((String) msg).strip();
            Channel ch = ctx.channel();
            String nick = nick(ch);
            if (line.isEmpty()) {
                return;
            }
            if (line.equals("/quit")) {
                ctx.writeAndFlush("Bye.").addListener(f -> ctx.close());
            } else if (line.equals("/who")) {
                StringBuilder who = new StringBuilder("Here:");
                for (Channel member : members) {
                    who.append(' ').append(nick(member));
                }
                ctx.writeAndFlush(who.toString()); // to the asker, on its own loop: the gate bounds it
            } else if (line.startsWith("/nick ") && line.length() > 6) {
                String newNick = line.substring(6).strip();
                ch.attr(NICK).set(newNick);
                delivery.broadcast(ctx.alloc(), "* " + nick + " is now " + newNick, null);
                ch.attr(SAID).set(Boolean.TRUE);
            } else {
                delivery.broadcast(ctx.alloc(), "<" + nick + "> " + line, ch);
                ch.attr(SAID).set(Boolean.TRUE);
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
