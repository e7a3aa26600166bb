package io.rill.example;

import java.nio.charset.StandardCharsets;

import io.rill.channel.AttributeKey;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelInitializer;
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
 */
final class LineChatServer implements Example {

    @Override
    public String name() {
        return "line-chat-server";
    }

    @Override
    public String description() {
        return "a chat room over text lines (try: nc HOST PORT in two terminals; --max-line N, default 1024)";
    }

    @Override
    public void run(ExampleOptions options) throws Exception {
        options.rejectUnknown("max-line");
        int maxLine = options.getInt("max-line", 1024, 16, 1 << 20);
        ChatRoom room = new ChatRoom(new ChannelGroup("chat"));
        ServerRunner.run(options, name(), new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new LineBasedFrameDecoder(maxLine),
                        new StringDecoder(StandardCharsets.UTF_8),
                        new LineEncoder(LineSeparator.WINDOWS, StandardCharsets.UTF_8),
                        room);
            }
        });
    }

    /** The room: one instance shared by every connection; the group holds who is in it. */
    @ChannelHandler.Sharable
    static final class ChatRoom implements ChannelHandler {
        private static final InternalLogger LOG = InternalLogger.get(ChatRoom.class);
        private static final AttributeKey<String> NICK = AttributeKey.valueOf("chat.nick");

        private final ChannelGroup members;

        ChatRoom(ChannelGroup members) {
            this.members = members;
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
            members.writeAndFlush("* " + ctx.channel().attr(NICK).get() + " left");
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
