package io.rill.testsuite.socket;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;

/**
 * An HTTP proxy for proxy-handler tests: reads one request head, records it, answers with the
 * scripted status line (and a small body for refusals), and after a 2xx echoes the tunnel's bytes.
 * With {@code silent} it reads and never answers.
 *
 * @param statusLine the answer's status line without CRLF, e.g. {@code HTTP/1.1 200 Connection established}
 * @param silent     never answer
 * @param heads      the request heads received, as text
 */
record ScriptedHttpProxy(String statusLine, boolean silent, BlockingQueue<String> heads) {

    static ScriptedHttpProxy answering(String statusLine) {
        return new ScriptedHttpProxy(statusLine, false, new LinkedBlockingQueue<>());
    }

    static ScriptedHttpProxy silentOne() {
        return new ScriptedHttpProxy("", true, new LinkedBlockingQueue<>());
    }

    /** A fresh handler for one accepted connection. */
    ChannelHandler childHandler() {
        return new Head();
    }

    private final class Head implements ChannelHandler {

        private final StringBuilder head = new StringBuilder();
        private boolean tunnel;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            if (tunnel) {
                ctx.writeAndFlush(buf);
                return;
            }
            head.append(buf.toString(StandardCharsets.ISO_8859_1));
            buf.release();
            int end = head.indexOf("\r\n\r\n");
            if (end < 0 || silent) {
                return;
            }
            heads.add(head.substring(0, end + 4));
            String rest = head.substring(end + 4);
            boolean ok = statusLine.split(" ")[1].startsWith("2");
            String body = ok ? "" : "refused\n";
            String answer = statusLine + "\r\n" + (ok ? "" : "Content-Length: " + body.length() + "\r\n") + "\r\n" + body;
            ctx.writeAndFlush(Unpooled.copiedBuffer(answer, StandardCharsets.ISO_8859_1));
            if (ok) {
                tunnel = true;
                if (!rest.isEmpty()) {
                    ctx.writeAndFlush(Unpooled.copiedBuffer(rest, StandardCharsets.ISO_8859_1));
                }
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
