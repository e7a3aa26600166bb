package io.rill.handler.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelId;
import io.rill.channel.embedded.EmbeddedChannel;

/** System.Logger routes to java.util.logging when no other backend is installed; the test listens there. */
class LoggingHandlerTest {

    /** Names the logger under test, so other tests' logging does not interfere. */
    private static final class Owner {
    }

    private final List<LogRecord> records = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    /** Held strongly: java.util.logging keeps loggers only weakly. */
    private Logger julLogger;

    @BeforeEach
    void listen() {
        julLogger = Logger.getLogger(Owner.class.getName());
        julLogger.setUseParentHandlers(false);
        julLogger.setLevel(Level.ALL);
        julLogger.addHandler(capture);
    }

    @AfterEach
    void stopListening() {
        julLogger.removeHandler(capture);
    }

    private List<String> messages() {
        return records.stream().map(LogRecord::getMessage).toList();
    }

    @Test
    void logsLifeCycleAndOutboundOperationsWithTheChannelPrefix() {
        EmbeddedChannel ch = new EmbeddedChannel(new LoggingHandler(Owner.class, LogLevel.INFO));
        ch.pipeline().fireUserEventTriggered("evt");
        ch.read();
        ch.close();
        List<String> messages = messages();
        assertTrue(messages.get(0).startsWith("[embedded"), messages.get(0));
        List<String> events = messages.stream().map(m -> m.substring(m.indexOf("] ") + 2)).toList();
        // The first READ REQUEST is auto-read's, on activation.
        assertEquals(List.of("REGISTER", "REGISTERED", "ACTIVE", "READ REQUEST", "USER EVENT: evt", "READ REQUEST",
                "CLOSE", "INACTIVE", "UNREGISTERED"), events);
        assertTrue(messages.get(2).contains("L:") && messages.get(2).contains(" - R:"), messages.get(2));
        assertTrue(records.stream().allMatch(r -> r.getLevel() == Level.INFO));
    }

    @Test
    void hexDumpsReadAndWrittenBuffers() {
        EmbeddedChannel ch = new EmbeddedChannel(new LoggingHandler(Owner.class, LogLevel.DEBUG));
        records.clear();
        ch.writeInbound(Unpooled.wrappedBuffer("hello, {} world".getBytes()));
        ch.writeOutbound(Unpooled.wrappedBuffer(new byte[] {1, 2}));
        List<String> messages = messages().stream().filter(m -> !m.endsWith("READ REQUEST")).toList();
        String read = messages.get(0);
        assertTrue(read.contains("READ: 15B"), read);
        assertTrue(read.contains("68 65 6c 6c 6f"), read);
        assertTrue(read.contains("|hello, {} world |"), "braces are text, not placeholders: " + read);
        assertTrue(messages.get(1).endsWith("READ COMPLETE"));
        assertTrue(messages.get(2).contains("WRITE: 2B") && messages.get(2).contains("01 02"), messages.get(2));
        assertTrue(messages.get(3).endsWith("FLUSH"));
        assertEquals(Level.FINE, records.get(0).getLevel(), "DEBUG maps to java.util.logging FINE");
        ch.finishAndReleaseAll();
    }

    @Test
    void simpleFormatShowsOnlyTheSize() {
        EmbeddedChannel ch = new EmbeddedChannel(
                new LoggingHandler(Owner.class, LogLevel.INFO, ByteBufFormat.SIMPLE));
        records.clear();
        ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
        assertTrue(messages().get(0).endsWith("READ: 3B"), messages().get(0));
        ch.finishAndReleaseAll();
    }

    @Test
    void logsExceptionsWithTheirCauseAndPassesThemOn() {
        List<Throwable> after = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new LoggingHandler(Owner.class, LogLevel.WARN),
                new ChannelHandler() {
                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        after.add(cause);
                    }
                });
        records.clear();
        IllegalStateException boom = new IllegalStateException("boom");
        ch.pipeline().fireExceptionCaught(boom);
        assertEquals(List.of(boom), after);
        assertSame(boom, records.get(0).getThrown());
        assertTrue(records.get(0).getMessage().contains("EXCEPTION: java.lang.IllegalStateException: boom"));
        ch.finishAndReleaseAll();
    }

    @Test
    void logsNothingWhenTheLevelIsDisabledAndPassesEverythingOn() {
        julLogger.setLevel(Level.WARNING);
        EmbeddedChannel ch = new EmbeddedChannel(new LoggingHandler(Owner.class, LogLevel.DEBUG));
        ByteBuf in = Unpooled.wrappedBuffer(new byte[] {7});
        ch.writeInbound(in);
        assertEquals(List.of(), records);
        ByteBuf read = ch.readInbound();
        assertSame(in, read);
        read.release();
        assertNull(ch.readInbound());
        ch.finishAndReleaseAll();
    }

    @Test
    void oneInstanceServesManyChannelsAndEachLineNamesItsOwnChannel() {
        LoggingHandler shared = new LoggingHandler(Owner.class, LogLevel.INFO, ByteBufFormat.SIMPLE);
        EmbeddedChannel a = new EmbeddedChannel(new NamedId("chan-a"), true, shared);
        EmbeddedChannel b = new EmbeddedChannel(new NamedId("chan-b"), true, shared);
        records.clear();
        // Interleaved, so a handler that kept the first channel (or the last) in a field would
        // write one channel's events under the other's name.
        a.writeInbound(Unpooled.wrappedBuffer(new byte[1]));
        b.writeInbound(Unpooled.wrappedBuffer(new byte[2]));
        b.close();
        a.writeInbound(Unpooled.wrappedBuffer(new byte[3]));
        a.close();

        assertEquals(List.of("READ: 1B", "READ COMPLETE", "READ: 3B", "READ COMPLETE", "CLOSE", "INACTIVE",
                "UNREGISTERED"), eventsOf("chan-a"));
        assertEquals(List.of("READ: 2B", "READ COMPLETE", "CLOSE", "INACTIVE", "UNREGISTERED"), eventsOf("chan-b"));
        assertEquals(records.size(), linesOf("chan-a").size() + linesOf("chan-b").size(),
                "every line names one of the two channels: " + messages());
        a.finishAndReleaseAll();
        b.finishAndReleaseAll();
    }

    @Test
    void logsUnderALoggerNameGivenAsAString() {
        String name = "wire.LoggingHandlerTest"; // no class has this name
        Logger named = Logger.getLogger(name);
        named.setUseParentHandlers(false);
        named.setLevel(Level.ALL);
        named.addHandler(capture);
        try {
            LoggingHandler handler = new LoggingHandler(name, LogLevel.INFO);
            assertEquals(LogLevel.INFO, handler.level());
            assertEquals(ByteBufFormat.HEX, handler.byteBufFormat());
            EmbeddedChannel ch = new EmbeddedChannel(handler);
            records.clear();
            ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {0x2a}));
            assertTrue(records.stream().allMatch(r -> r.getLoggerName().equals(name)), messages().toString());
            assertTrue(messages().get(0).contains("READ: 1B") && messages().get(0).contains("2a"), messages().get(0));
            ch.finishAndReleaseAll();
        } finally {
            named.removeHandler(capture);
        }
        assertEquals(ByteBufFormat.SIMPLE,
                new LoggingHandler(name, LogLevel.DEBUG, ByteBufFormat.SIMPLE).byteBufFormat());
        NullPointerException e = org.junit.jupiter.api.Assertions.assertThrows(NullPointerException.class,
                () -> new LoggingHandler((String) null, LogLevel.INFO));
        assertEquals("name", e.getMessage());
    }

    /** The lines logged under {@code id}'s prefix, in order. */
    private List<String> linesOf(String id) {
        return messages().stream().filter(m -> m.startsWith("[" + id + ",") || m.startsWith("[" + id + "]")).toList();
    }

    /** The events of {@link #linesOf}, without the prefix; auto-read's read requests left out. */
    private List<String> eventsOf(String id) {
        return linesOf(id).stream().map(m -> m.substring(m.indexOf("] ") + 2))
                .filter(e -> !e.equals("READ REQUEST")).toList();
    }

    /** A channel id of our choosing: embedded channels otherwise all share one. */
    private record NamedId(String name) implements ChannelId {
        @Override
        public String asShortText() {
            return name;
        }

        @Override
        public String asLongText() {
            return name;
        }
    }
}
