package io.rill.handler.codec.haproxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.DecoderException;
import io.rill.fuzz.Cuttings;

/**
 * Feeds bytes to a fresh {@link HAProxyMessageDecoder} whole and every way {@link Cuttings} cuts
 * them, and checks every way agrees: the header (event and attribute), the bytes passed on after
 * it, the errors, and that the channel closed on an error.
 */
final class HAProxyDecodeRun {

    /** What one feed produced. */
    record Result(HAProxyMessage message, String passedOn, List<Throwable> errors, boolean open) {

        Throwable onlyError() {
            assertEquals(1, errors.size(), () -> "errors: " + errors);
            return errors.get(0);
        }
    }

    private HAProxyDecodeRun() {
    }

    static Result everyWay(byte[] bytes) {
        Result whole = run(List.of(bytes));
        for (List<byte[]> way : Cuttings.of(bytes)) {
            Result r = run(way);
            assertEquals(whole.message(), r.message(), "header fed whole and in " + way.size() + " pieces");
            assertEquals(whole.passedOn(), r.passedOn(), "bytes after the header");
            assertEquals(whole.errors().stream().map(Object::getClass).toList(),
                    r.errors().stream().map(Object::getClass).toList(), "errors");
        }
        return whole;
    }

    static Result run(List<byte[]> pieces) {
        List<HAProxyMessage> events = new ArrayList<>();
        StringBuilder passedOn = new StringBuilder();
        List<Throwable> errors = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(new HAProxyMessageDecoder(), new ChannelHandler() {
            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                if (evt instanceof HAProxyMessage m) {
                    events.add(m);
                }
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf buf = (ByteBuf) msg;
                passedOn.append(ByteBufUtil.hexDump(buf));
                buf.release();
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                errors.add(cause);
            }
        });
        List<ByteBuf> fed = new ArrayList<>();
        for (byte[] piece : pieces) {
            if (!channel.isOpen()) {
                break;
            }
            ByteBuf buf = Unpooled.copiedBuffer(piece);
            fed.add(buf);
            channel.writeInbound(buf);
        }
        boolean open = channel.isOpen();
        channel.finishAndReleaseAll();
        for (Throwable t : errors) {
            if (!(t instanceof DecoderException)) {
                throw new AssertionError("only a DecoderException may come out of the decoder", t);
            }
        }
        for (ByteBuf buf : fed) {
            if (buf.refCnt() != 0) {
                fail("input buffer not released");
            }
        }
        if (events.size() > 1) {
            fail("more than one header: " + events);
        }
        HAProxyMessage message = events.isEmpty() ? null : events.get(0);
        if (message != null) {
            assertEquals(message, channel.attr(HAProxyMessageDecoder.MESSAGE).get(), "the attribute holds the header");
            if (channel.pipeline().get(HAProxyMessageDecoder.class) != null) {
                fail("the decoder stays in the pipeline after the header");
            }
        }
        return new Result(message, passedOn.toString(), errors, open);
    }

    static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }
}
