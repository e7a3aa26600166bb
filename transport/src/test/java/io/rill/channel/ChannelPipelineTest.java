package io.rill.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

class ChannelPipelineTest {

    /** Records inbound reads and outbound writes under its name, passing them on. */
    static final class Recorder implements ChannelHandler {
        final String name;
        final List<String> log;

        Recorder(String name, List<String> log) {
            this.name = name;
            this.log = log;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            log.add(name + ":read:" + msg);
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
            log.add(name + ":write:" + msg);
            ctx.write(msg, promise);
        }
    }

    /** Overrides nothing: the pipeline must walk past it. */
    static final class PassThrough implements ChannelHandler {
    }

    @Test
    void inboundEventsFlowHeadToTailAndOutboundTailToHead() {
        List<String> log = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new Recorder("a", log), new Recorder("b", log), new Recorder("c", log));
        ch.writeInbound("in");
        ch.writeOutbound("out");
        assertEquals(List.of("a:read:in", "b:read:in", "c:read:in", "c:write:out", "b:write:out", "a:write:out"), log);
        assertEquals("in", ch.readInbound());
        assertEquals("out", ch.readOutbound());
        assertFalse(ch.finish());
    }

    @Test
    void handlersThatDoNotOverrideAnEventAreWalkedPastNotCalled() {
        List<StackTraceElement[]> stacks = new ArrayList<>();
        ChannelHandler probe = new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                stacks.add(new Throwable().getStackTrace());
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(new PassThrough(), new PassThrough(), new PassThrough(), probe);
        ch.writeInbound("x");
        // A forwarding default would leave a ChannelHandler.channelRead frame between head and the probe.
        long forwardingFrames = Arrays.stream(stacks.get(0))
                .filter(e -> e.getClassName().equals(ChannelHandler.class.getName())
                        && e.getMethodName().equals("channelRead"))
                .count();
        assertEquals(0, forwardingFrames);
        assertEquals(0, ChannelHandlerMask.of(PassThrough.class));
        assertEquals(ChannelHandlerMask.CHANNEL_READ | ChannelHandlerMask.WRITE, ChannelHandlerMask.of(Recorder.class));
        assertEquals(ChannelHandlerMask.ALL_OUTBOUND, ChannelHandlerMask.of(PipelineHead.class) & ChannelHandlerMask.ALL_OUTBOUND);
        assertEquals(ChannelHandlerMask.ALL_INBOUND, ChannelHandlerMask.of(PipelineTail.class));
        ch.finish();
    }

    @Test
    void handlersAreAddedRemovedAndReplacedByNameTypeAndInstance() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ChannelPipeline p = ch.pipeline();
        PassThrough a = new PassThrough();
        Recorder b = new Recorder("b", new ArrayList<>());
        PassThrough c = new PassThrough();
        p.addLast("a", a).addLast("c", c).addBefore("c", "b", b);
        assertEquals(List.of("a", "b", "c"), p.names());
        assertSame(a, p.first());
        assertSame(c, p.last());
        assertSame(b, p.get("b"));
        assertSame(b, p.get(Recorder.class));
        assertSame(b, p.context(b).handler());
        assertEquals("b", p.context(Recorder.class).name());

        PassThrough d = new PassThrough();
        p.addAfter("a", "d", d);
        assertEquals(List.of("a", "d", "b", "c"), new ArrayList<>(p.toMap().keySet()));

        assertSame(b, p.remove(Recorder.class));
        assertSame(a, p.remove("a"));
        p.remove(c);
        assertEquals(List.of("d"), p.names());

        PassThrough e = new PassThrough();
        assertSame(d, p.replace("d", "e", e));
        PassThrough f = new PassThrough();
        p.replace(e, "e", f);
        assertEquals(List.of("e"), p.names());
        assertSame(f, p.get("e"));
        assertThrows(NoSuchElementException.class, () -> p.remove("nope"));
        assertSame(f, p.removeFirst());
        assertNull(p.removeLast());
        ch.finish();
    }

    @Test
    void generatedNamesAreSimpleNamePlusFirstFreeCounter() {
        EmbeddedChannel ch = new EmbeddedChannel(new PassThrough(), new PassThrough());
        ch.pipeline().addFirst(null, new PassThrough());
        assertEquals(List.of("PassThrough#2", "PassThrough#0", "PassThrough#1"), ch.pipeline().names());
        ch.pipeline().remove("PassThrough#0");
        ch.pipeline().addLast(new PassThrough());
        assertTrue(ch.pipeline().names().contains("PassThrough#0"));
        ch.finish();
    }

    @Test
    void duplicateNamesAreRejected() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addLast("x", new PassThrough());
        ChannelPipelineException e = assertThrows(ChannelPipelineException.class,
                () -> ch.pipeline().addLast("x", new PassThrough()));
        assertTrue(e.getMessage().contains("'x'"), e.getMessage());
        ch.finish();
    }

    @Test
    void nonSharableInstanceCannotBeAddedTwiceOrToASecondPipeline() {
        PassThrough h = new PassThrough();
        EmbeddedChannel one = new EmbeddedChannel(h);
        assertThrows(ChannelPipelineException.class, () -> one.pipeline().addLast(h));
        EmbeddedChannel two = new EmbeddedChannel();
        ChannelPipelineException e = assertThrows(ChannelPipelineException.class, () -> two.pipeline().addLast(h));
        assertTrue(e.getMessage().contains("@Sharable"), e.getMessage());
        one.pipeline().remove(h);
        two.pipeline().addLast(h); // back in exactly one place
        one.finish();
        two.finish();
    }

    @ChannelHandler.Sharable
    static final class SharedPassThrough implements ChannelHandler {
    }

    @Test
    void sharableInstanceMayBeAddedManyTimes() {
        SharedPassThrough h = new SharedPassThrough();
        EmbeddedChannel one = new EmbeddedChannel(h, h);
        EmbeddedChannel two = new EmbeddedChannel(h);
        assertEquals(2, one.pipeline().names().size());
        one.finish();
        two.finish();
    }

    @Test
    void handlerThatReplacesItselfDuringChannelReadPassesTheRestOn() {
        List<String> log = new ArrayList<>();
        // Port-unification style: look at the first message, install the real handlers, step aside.
        ChannelHandler detector = new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ctx.pipeline().addAfter(ctx.name(), "upper", new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext c, Object m) {
                        c.fireChannelRead(m.toString().toUpperCase());
                    }
                });
                ctx.pipeline().addAfter("upper", "rec", new Recorder("rec", log));
                ctx.pipeline().remove(this);
                ctx.fireChannelRead(msg);
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(detector);
        ch.writeInbound("first", "second");
        assertEquals(List.of("rec:read:FIRST", "rec:read:SECOND"), log);
        assertEquals(List.of("upper", "rec"), ch.pipeline().names());
        assertEquals("FIRST", ch.readInbound());
        assertEquals("SECOND", ch.readInbound());
        ch.finish();
    }

    @Test
    void handlerAddedAndHandlerRemovedRunExactlyOnceAndAddedPrecedesEvents() {
        List<String> log = new ArrayList<>();
        ChannelHandler h = new ChannelHandler() {
            @Override
            public void handlerAdded(ChannelHandlerContext ctx) {
                log.add("added");
            }

            @Override
            public void handlerRemoved(ChannelHandlerContext ctx) {
                log.add("removed");
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                log.add("read");
                ctx.fireChannelRead(msg);
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(h);
        ch.writeInbound("x");
        ch.pipeline().remove(h);
        ch.writeInbound("y");
        assertFalse(ch.pipeline().context(PassThrough.class) != null);
        ch.finishAndReleaseAll();
        assertEquals(List.of("added", "read", "removed"), log);
    }

    @Test
    void closingRemovesEveryHandlerOnce() {
        AtomicInteger removed = new AtomicInteger();
        ChannelHandler h = new ChannelHandler() {
            @Override
            public void handlerRemoved(ChannelHandlerContext ctx) {
                removed.incrementAndGet();
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(h);
        ch.close();
        ch.close();
        assertEquals(1, removed.get());
        assertTrue(ch.pipeline().names().isEmpty());
    }

    @Test
    void exceptionInChannelReadReachesTheSameHandlersExceptionCaught() {
        List<Throwable> caught = new ArrayList<>();
        ChannelHandler h = new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                throw new IllegalStateException("boom " + msg);
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                caught.add(cause);
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(h);
        ch.writeInbound("x");
        assertEquals(1, caught.size());
        assertEquals("boom x", caught.get(0).getMessage());
        ch.checkException();
        ch.finish();
    }

    @Test
    void unhandledExceptionIsRecordedByEmbeddedChannelNotThrownByTheFiringCall() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().fireExceptionCaught(new IllegalArgumentException("unhandled"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, ch::checkException);
        assertEquals("unhandled", e.getMessage());
        ch.checkException(); // cleared
        ch.finish();
    }

    @Test
    void outboundHandlerFailuresFailTheOperationsPromise() {
        ChannelHandler h = new ChannelHandler() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
                io.rill.buffer.ReferenceCountUtil.release(msg);
                throw new IllegalStateException("no writes");
            }

            @Override
            public void bind(ChannelHandlerContext ctx, java.net.SocketAddress local, Promise<Void> promise) {
                throw new IllegalStateException("no binds");
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(h);
        Future<Void> w = ch.writeAndFlush("x");
        assertTrue(w.isDone());
        assertEquals("no writes", w.cause().getMessage());
        Future<Void> b = ch.bind(new InetSocketAddress(0));
        assertEquals("no binds", b.cause().getMessage());
        ch.finish();
    }

    @Test
    void failedWriteOnTheVoidPromiseBecomesExceptionCaught() {
        ChannelHandler h = new ChannelHandler() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) {
                promise.setFailure(new IllegalStateException("refused " + msg));
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(h);
        ch.writeAndFlush("x", ch.voidPromise());
        IllegalStateException e = assertThrows(IllegalStateException.class, ch::checkException);
        assertEquals("refused x", e.getMessage());
        assertThrows(IllegalStateException.class, () -> ch.voidPromise().addListener(f -> { }));
        ch.finish();
    }

    @Test
    void writeAfterCloseFailsClearlyAndReleasesTheMessage() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.close();
        ByteBuf buf = Unpooled.buffer(4).writeInt(1);
        Future<Void> f = ch.writeAndFlush(buf);
        assertInstanceOf(java.nio.channels.ClosedChannelException.class, f.cause());
        assertTrue(f.cause().getMessage().contains("closed"), f.cause().getMessage());
        assertEquals(0, buf.refCnt());
    }

    @Test
    void channelInitializerAddsHandlersThenRemovesItself() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelInitializer<EmbeddedChannel>() {
            @Override
            protected void initChannel(EmbeddedChannel channel) {
                channel.pipeline().addLast("a", new PassThrough()).addLast("b", new PassThrough());
            }
        });
        assertEquals(List.of("a", "b"), ch.pipeline().names());
        ch.finish();
    }

    @Test
    void channelInitializerFailureClosesTheChannel() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addLast(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel channel) {
                throw new IllegalStateException("bad init");
            }
        });
        ch.runPendingTasks();
        assertFalse(ch.isOpen());
        // Logged once by the initializer, not fired into the half-built pipeline (and logged again at its end).
        ch.checkException();
        assertTrue(ch.pipeline().names().isEmpty());
    }

    @Test
    void simpleInboundHandlerMatchesItsTypeArgumentAndReleases() {
        List<Object> seen = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new SimpleChannelInboundHandler<ByteBuf>() {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
                seen.add(msg.readableBytes());
            }
        });
        ByteBuf buf = Unpooled.buffer(8).writeLong(7);
        ch.writeInbound(buf, "not a buffer");
        assertEquals(List.of(8), seen);
        assertEquals(0, buf.refCnt());
        assertEquals("not a buffer", ch.readInbound());
        ch.finish();
    }

    abstract static class Generic<T> extends SimpleChannelInboundHandler<T> {
    }

    @Test
    void simpleInboundHandlerResolvesTypeArgumentsThroughGenericSubclasses() {
        List<Object> seen = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new Generic<String>() {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, String msg) {
                seen.add(msg);
            }
        });
        ch.writeInbound("s", 42);
        assertEquals(List.of("s"), seen);
        assertEquals(42, (Integer) ch.readInbound());
        ch.finish();
    }
}
