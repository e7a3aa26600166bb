package io.rill.handler.ssl;

import static io.rill.handler.ssl.TlsFixtures.LOCALHOST;
import static io.rill.handler.ssl.TlsFixtures.build;
import static io.rill.handler.ssl.TlsFixtures.clientTrusting;
import static io.rill.handler.ssl.TlsFixtures.serverBuilder;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.Unpooled;
import io.rill.channel.WriteBufferWaterMark;
import io.rill.util.concurrent.Future;
/** Case IDs such as T-07 in this file are those of docs/security-cases.md. */
class SslHandlerTest {
    /** The provider under test; a subclass reruns every test with another. */
    SslProvider provider() {
        return SslProvider.JDK;
    }

    @org.junit.jupiter.api.BeforeEach
    void selectProvider() {
        TlsFixtures.provider = provider();
    }


    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    /** The first exception (unwrapped from DecoderException) that reached {@code peer}'s recorder. */
    private static Throwable firstFailure(TlsPeer peer) {
        assertFalse(peer.exceptions.isEmpty(), "an exception reached the pipeline");
        Throwable t = peer.exceptions.get(0);
        return t instanceof SSLException ? t : t.getCause();
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
    void handshakeCompletesAndDataFlowsBothWays(String protocol) {
        TlsPeer[] peers = TlsFixtures.pair(protocol);
        TlsPeer server = peers[0], client = peers[1];
        TlsPeer.exchange(client, server);
        assertTrue(client.handshakeSucceeded());
        assertTrue(server.handshakeSucceeded());
        assertEquals(protocol, client.handler().engine().getSession().getProtocol());
        assertEquals(SslHandshakeCompletionEvent.SUCCESS, server.events.get(0));
        assertEquals(SslHandshakeCompletionEvent.SUCCESS, client.events.get(0));

        client.write("ping");
        TlsPeer.exchange(client, server);
        server.write("pong");
        TlsPeer.exchange(client, server);
        assertEquals("ping", server.receivedText());
        assertEquals("pong", client.receivedText());
        server.dispose();
        client.dispose();
    }

    @Test
    void writesMadeDuringTheHandshakeAreSentAfterIt() {
        TlsPeer[] peers = TlsFixtures.pair("TLSv1.3");
        TlsPeer server = peers[0], client = peers[1];
        Future<Void> early = client.channel.writeAndFlush(Unpooled.copiedBuffer("early", StandardCharsets.UTF_8));
        assertFalse(early.isDone(), "held until the handshake completes");
        TlsPeer.exchange(client, server);
        assertTrue(early.isSuccess());
        assertEquals("early", server.receivedText());
        server.dispose();
        client.dispose();
    }

    @Test
    void smallWritesAreGatheredIntoOneRecord() {
        TlsPeer[] peers = TlsFixtures.pair("TLSv1.3");
        TlsPeer server = peers[0], client = peers[1];
        TlsPeer.exchange(client, server);
        client.drainOutbound();
        client.writtenRecordSizes.clear();
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            client.channel.write(Unpooled.copiedBuffer("message " + i + ";", StandardCharsets.UTF_8));
            expected.append("message ").append(i).append(';');
        }
        client.channel.flush();
        server.feed(client.drainOutbound());
        assertEquals(1, client.writtenRecordSizes.size(), "100 small writes, one record");
        assertEquals(expected.toString(), server.receivedText());
        server.dispose();
        client.dispose();
    }

    @Test
    void aLargeWriteIsCutIntoRecordsOfAtMost16KiBAndSeveralRecordsUnwrapInOneRead() {
        TlsPeer[] peers = TlsFixtures.pair("TLSv1.2");
        TlsPeer server = peers[0], client = peers[1];
        TlsPeer.exchange(client, server);
        byte[] data = new byte[100_000];
        new Random(1).nextBytes(data);
        client.drainOutbound();
        client.writtenRecordSizes.clear();
        Future<Void> write = client.channel.writeAndFlush(Unpooled.copiedBuffer(data));
        byte[] ciphertext = client.drainOutbound();
        assertEquals(7, client.writtenRecordSizes.size(), "ceil(100000 / 16384) records");
        for (int size : client.writtenRecordSizes) {
            assertTrue(size <= SslRecords.MAX_PLAINTEXT_LENGTH + 256, "record of " + size + " bytes");
        }
        assertTrue(write.isSuccess());
        server.feed(ciphertext); // all seven records in one read
        assertArrayEquals(data, server.received.toByteArray());
        server.dispose();
        client.dispose();
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
    @DisplayName("T-07: records delivered byte by byte complete the handshake")
    void recordsDeliveredByteByByteCompleteTheHandshake(String protocol) {
        // T-07: a partial record is never handed to the engine; every record arrives in pieces.
        TlsPeer[] peers = TlsFixtures.pair(protocol);
        TlsPeer server = peers[0], client = peers[1];
        for (int round = 0; round < 10 && !(client.handshakeSucceeded() && server.handshakeSucceeded()); round++) {
            for (byte b : client.drainOutbound()) {
                server.feed(new byte[] {b});
            }
            for (byte b : server.drainOutbound()) {
                client.feed(new byte[] {b});
            }
        }
        assertTrue(client.handshakeSucceeded() && server.handshakeSucceeded());
        client.write("trickled");
        for (byte b : client.drainOutbound()) {
            server.feed(new byte[] {b});
        }
        assertEquals("trickled", server.receivedText());
        server.dispose();
        client.dispose();
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
    void delegatedTasksCanRunOnAnExecutorWhileTheHandlerWaits(String protocol) {
        java.util.ArrayDeque<Runnable> executor = new java.util.ArrayDeque<>();
        SslContext serverContext = build(serverBuilder(LOCALHOST).protocols(protocol));
        SslContext clientContext = build(clientTrusting(LOCALHOST).protocols(protocol));
        TlsPeer server = new TlsPeer(serverContext.newHandler(ByteBufAllocator.DEFAULT, executor::add));
        TlsPeer client = new TlsPeer(clientContext.newHandler(ByteBufAllocator.DEFAULT, "localhost", 443, executor::add));
        client.write("sent before the handshake");
        int tasks = 0;
        for (int round = 0; round < 20 && !(client.handshakeSucceeded() && server.handshakeSucceeded()); round++) {
            TlsPeer.exchange(client, server);
            for (Runnable task; (task = executor.poll()) != null; tasks++) {
                task.run();
            }
            client.channel.runPendingTasks();
            server.channel.runPendingTasks();
        }
        TlsPeer.exchange(client, server);
        if (provider() == SslProvider.JDK) {
            assertTrue(tasks > 0, "some tasks went to the executor"); // BoringSSL's engine has none to give
        }
        assertTrue(client.handshakeSucceeded() && server.handshakeSucceeded());
        assertEquals("sent before the handshake", server.receivedText());
        server.dispose();
        client.dispose();
    }

    @Test
    @DisplayName("TL-03: plaintext where a client hello is expected is rejected and closes")
    void plaintextWhereAClientHelloIsExpectedIsRejectedAndCloses() {
        // TL-03
        TlsPeer server = new TlsPeer(build(serverBuilder(LOCALHOST)).newHandler(ByteBufAllocator.DEFAULT));
        server.feed("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        Throwable failure = firstFailure(server);
        assertInstanceOf(NotSslRecordException.class, failure);
        assertTrue(failure.getMessage().contains("|GET / HTTP/1.1.."), failure.getMessage());
        assertFalse(server.channel.isOpen());
        assertInstanceOf(NotSslRecordException.class, server.handler().handshakeFuture().cause());
        assertEquals(0, server.drainOutbound().length, "no alert for a peer that does not speak TLS");
        server.dispose();
    }

    @ParameterizedTest
    @ValueSource(strings = {"17 03 03 48 01", "16 03 03 ff ff", "16 03 01 ff ff 01"})
    @DisplayName("TL-04, T-07: a record longer than tls allows closes before it is buffered")
    void aRecordLongerThanTlsAllowsClosesBeforeItIsBuffered(String header) {
        // TL-04, T-07: 18433 and 65535 bytes claimed; nothing waits for them.
        TlsPeer server = new TlsPeer(build(serverBuilder(LOCALHOST)).newHandler(ByteBufAllocator.DEFAULT));
        server.feed(hex(header));
        Throwable failure = firstFailure(server);
        assertInstanceOf(NotSslRecordException.class, failure);
        assertTrue(failure.getMessage().contains("limit is 18432"), failure.getMessage());
        assertFalse(server.channel.isOpen());
        server.dispose();
    }

    @Test
    @DisplayName("T-01: an ssl v 2 hello with inconsistent lengths is refused without spinning")
    void anSslV2HelloWithInconsistentLengthsIsRefusedWithoutSpinning() {
        // T-01: 80 xx 01 03 01 ... with lengths that do not add up.
        TlsPeer server = new TlsPeer(build(serverBuilder(LOCALHOST)).newHandler(ByteBufAllocator.DEFAULT));
        server.feed(hex("80 2e 01 03 01 00 ff 00 00 00 ff 00 00 35 00 00 2f"));
        Throwable failure = firstFailure(server);
        assertInstanceOf(NotSslRecordException.class, failure);
        assertTrue(failure.getMessage().contains("SSLv2"), failure.getMessage());
        assertFalse(server.channel.isOpen());
        server.dispose();
    }

    @Test
    @DisplayName("T-07: a truncated record waits then ends the handshake when the connection closes")
    void aTruncatedRecordWaitsThenEndsTheHandshakeWhenTheConnectionCloses() {
        // T-07: a record cut short is never passed to the engine.
        TlsPeer[] peers = TlsFixtures.pair("TLSv1.3");
        TlsPeer server = peers[0], client = peers[1];
        byte[] hello = client.drainOutbound();
        server.feed(Arrays.copyOf(hello, hello.length - 1));
        assertTrue(server.exceptions.isEmpty());
        assertFalse(server.handler().handshakeFuture().isDone());
        server.channel.close();
        assertInstanceOf(SSLHandshakeException.class, server.handler().handshakeFuture().cause());
        server.dispose();
        client.dispose();
    }

    @Test
    void theHandshakeTimesOutAndCloses() {
        SslHandler handler = build(serverBuilder(LOCALHOST)).newHandler(ByteBufAllocator.DEFAULT);
        handler.setHandshakeTimeout(2, TimeUnit.SECONDS);
        TlsPeer server = new TlsPeer(handler);
        server.channel.advanceTimeBy(1999, TimeUnit.MILLISECONDS);
        server.channel.runPendingTasks();
        assertTrue(server.channel.isOpen());
        server.channel.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        server.channel.runPendingTasks();
        assertFalse(server.channel.isOpen());
        assertInstanceOf(SslHandshakeTimeoutException.class, handler.handshakeFuture().cause());
        assertInstanceOf(SslHandshakeCompletionEvent.class, server.events.get(0));
        assertInstanceOf(SslHandshakeTimeoutException.class, ((SslCompletionEvent) server.events.get(0)).cause());
        server.dispose();
    }

    @Test
    void closeGivesUpWaitingForCloseNotifyToFlushAfterTheTimeout() {
        TlsPeer[] peers = TlsFixtures.pair("TLSv1.3");
        TlsPeer server = peers[0], client = peers[1];
        TlsPeer.exchange(client, server);
        // A peer that reads nothing: from now on no write of the client completes.
        client.channel.pipeline().addFirst("stuck", new io.rill.channel.ChannelHandler() {
            @Override
            public void write(io.rill.channel.ChannelHandlerContext ctx, Object msg,
                    io.rill.util.concurrent.Promise<Void> promise) {
                io.rill.buffer.ReferenceCountUtil.release(msg);
            }
        });
        client.handler().setCloseNotifyFlushTimeout(500, TimeUnit.MILLISECONDS);
        Future<Void> closed = client.channel.pipeline().context(client).close(); // through SslHandler
        assertTrue(client.channel.isOpen(), "waits for close_notify to be flushed");
        client.channel.advanceTimeBy(500, TimeUnit.MILLISECONDS);
        client.channel.runPendingTasks();
        assertFalse(client.channel.isOpen());
        assertTrue(closed.isSuccess());
        server.dispose();
        client.dispose();
    }

    @Test
    void removingTheHandlerFailsAndReleasesItsPendingWrites() {
        TlsPeer[] peers = TlsFixtures.pair("TLSv1.3");
        TlsPeer server = peers[0], client = peers[1];
        Future<Void> pendingWrite = client.channel.writeAndFlush(Unpooled.copiedBuffer(new byte[100]));
        client.channel.pipeline().remove(client.handler());
        assertInstanceOf(SSLException.class, pendingWrite.cause());
        assertFalse(client.handler().handshakeFuture().isSuccess());
        server.dispose();
        client.dispose();
    }

    @Test
    void theDefaultHandshakeTimeoutIsTenSeconds() {
        SslHandler handler = new SslHandler(build(serverBuilder(LOCALHOST)).newEngine(null));
        assertEquals(10_000, handler.getHandshakeTimeoutMillis());
        if (handler.engine() instanceof NativeEngine engine) {
            engine.free(); // never in a pipeline: nothing else would free it
        }
    }

    @Test
    void closeSendsCloseNotifyAndThePeerReportsACleanClose() {
        TlsPeer[] peers = TlsFixtures.pair("TLSv1.3");
        TlsPeer server = peers[0], client = peers[1];
        TlsPeer.exchange(client, server);
        client.channel.write(Unpooled.copiedBuffer("last words", StandardCharsets.UTF_8));
        client.channel.close();
        assertFalse(client.channel.isOpen());
        byte[] wire = client.drainOutbound();
        server.feed(wire);
        assertEquals("last words", server.receivedText(), "data written before close is still sent");
        assertTrue(server.handler().sslCloseFuture().isSuccess());
        assertTrue(server.events.contains(SslCloseCompletionEvent.SUCCESS));
        assertFalse(server.channel.isOpen(), "a close_notify closes the receiving side too");
        server.dispose();
        client.dispose();
    }

    @Test
    @DisplayName("TL-06: a connection ending without close notify is reported as possible truncation")
    void aConnectionEndingWithoutCloseNotifyIsReportedAsPossibleTruncation() {
        // TL-06
        TlsPeer[] peers = TlsFixtures.pair("TLSv1.2");
        TlsPeer server = peers[0], client = peers[1];
        TlsPeer.exchange(client, server);
        client.channel.pipeline().fireChannelInactive(); // the TCP connection ended, no close_notify came
        SslCloseCompletionEvent event = (SslCloseCompletionEvent) client.events.get(client.events.size() - 1);
        assertFalse(event.isSuccess());
        assertTrue(event.cause().getMessage().contains("truncated"));
        assertFalse(client.handler().sslCloseFuture().isSuccess());
        server.dispose();
        client.dispose();
    }

    @Test
    @DisplayName("TL-01: renegotiation is refused in tls 1 2")
    void renegotiationIsRefusedInTls12() throws Exception {
        // TL-01: a ClientHello after the handshake closes the connection.
        org.junit.jupiter.api.Assumptions.assumeTrue(provider() == SslProvider.JDK,
                "only the JDK engine can be made to renegotiate; BoringSSL's refusal is tested with s_client");
        TlsPeer[] peers = TlsFixtures.pair("TLSv1.2");
        TlsPeer server = peers[0], client = peers[1];
        TlsPeer.exchange(client, server);
        client.handler().engine().beginHandshake();
        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(32 * 1024);
        client.handler().engine().wrap(java.nio.ByteBuffer.allocate(0), out);
        out.flip();
        byte[] hello = new byte[out.remaining()];
        out.get(hello);
        assertEquals(SslRecords.HANDSHAKE, hello[0]);
        server.feed(hello);
        Throwable failure = firstFailure(server);
        assertTrue(failure.getMessage().contains("renegotiation refused"), failure.getMessage());
        assertFalse(server.channel.isOpen());
        server.dispose();
        client.dispose();
    }

    @Test
    void startTlsLetsTheFirstWritePassInTheClear() {
        SslContext serverContext = build(serverBuilder(LOCALHOST));
        TlsPeer server = new TlsPeer(serverContext.newHandler(ByteBufAllocator.DEFAULT, true));
        server.write("OK go ahead\r\n");
        assertEquals("OK go ahead\r\n", new String(server.drainOutbound(), StandardCharsets.US_ASCII));
        TlsPeer client = new TlsPeer(build(clientTrusting(LOCALHOST)).newHandler(ByteBufAllocator.DEFAULT, "localhost", 25));
        TlsPeer.exchange(client, server);
        assertTrue(server.handshakeSucceeded());
        server.write("now encrypted");
        byte[] wire = server.drainOutbound();
        assertEquals(SslRecords.APPLICATION_DATA, wire[0]);
        client.feed(wire);
        assertEquals("now encrypted", client.receivedText());
        server.dispose();
        client.dispose();
    }

    @Test
    void isEncryptedRecognisesTlsRecordHeadersOnly() {
        ByteBuf hello = Unpooled.copiedBuffer(hex("16 03 01 00 c8 01"));
        ByteBuf get = Unpooled.copiedBuffer("GET / HTTP/1.1", StandardCharsets.US_ASCII);
        ByteBuf shortBuf = Unpooled.copiedBuffer(hex("16 03 01"));
        try {
            assertTrue(SslHandler.isEncrypted(hello));
            assertFalse(SslHandler.isEncrypted(get));
            assertEquals(0, hello.readerIndex());
            assertThrows(IllegalArgumentException.class, () -> SslHandler.isEncrypted(shortBuf));
        } finally {
            hello.release();
            get.release();
            shortBuf.release();
        }
    }

    @Test
    void writesAfterCloseAndNonBufferWritesFailTheirPromise() {
        TlsPeer[] peers = TlsFixtures.pair("TLSv1.3");
        TlsPeer server = peers[0], client = peers[1];
        TlsPeer.exchange(client, server);
        Future<Void> notABuffer = client.channel.writeAndFlush("a string");
        assertInstanceOf(IllegalArgumentException.class, notABuffer.cause());
        client.channel.close();
        Future<Void> late = client.channel.writeAndFlush(Unpooled.copiedBuffer(new byte[10]));
        assertFalse(late.isSuccess());
        server.dispose();
        client.dispose();
    }

    @Test
    void handshakeFailureSendsAnAlertAndBothSidesClose() {
        // The client trusts a different certificate than the one the server presents.
        SslContext server = build(serverBuilder(LOCALHOST));
        SslContext client = build(clientTrusting(TlsFixtures.OTHER_HOST));
        TlsPeer s = new TlsPeer(server.newHandler(ByteBufAllocator.DEFAULT));
        TlsPeer c = new TlsPeer(client.newHandler(ByteBufAllocator.DEFAULT, "localhost", 443));
        TlsPeer.exchange(c, s);
        assertInstanceOf(SSLHandshakeException.class, c.handler().handshakeFuture().cause());
        assertFalse(c.channel.isOpen());
        assertFalse(s.channel.isOpen(), "the alert reached the server");
        assertFalse(s.handler().handshakeFuture().isSuccess());
        assertNull(c.handler().applicationProtocol());
        s.dispose();
        c.dispose();
    }

    static byte[] hex(String spaced) {
        String[] parts = spaced.trim().split("\\s+");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String p : parts) {
            out.write(Integer.parseInt(p, 16));
        }
        return out.toByteArray();
    }

    static Throwable root(Throwable t) {
        return rootCause(t);
    }

    @Test
    void writesWaitingForTheHandshakeCountTowardWritability() {
        TlsPeer[] peers = TlsFixtures.pair("TLSv1.3");
        TlsPeer server = peers[0], client = peers[1];
        client.channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(1024, 4096));
        client.channel.write(Unpooled.wrappedBuffer(new byte[3000]));
        assertTrue(client.channel.isWritable());
        client.channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[2000]));
        assertFalse(client.channel.isWritable(), "5000 bytes wait for the handshake: past the high water mark");
        assertEquals(1, client.writabilityChanges);

        TlsPeer.exchange(client, server);
        assertTrue(client.channel.isWritable(), "encrypted and written once the handshake completed");
        assertEquals(2, client.writabilityChanges);
        assertEquals(5000, server.received.size());
        server.dispose();
        client.dispose();
    }

    @Test
    void aWriteBeyondThePendingLimitFailsAndIsReleased() {
        TlsPeer[] peers = TlsFixtures.pair("TLSv1.3");
        TlsPeer server = peers[0], client = peers[1];
        client.handler().setMaxPendingPlaintextBytes(10_000);
        assertThrows(IllegalArgumentException.class, () -> client.handler().setMaxPendingPlaintextBytes(0));
        Future<Void> first = client.channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[6000]));
        ByteBuf tooMuch = Unpooled.wrappedBuffer(new byte[6000]);
        Future<Void> second = client.channel.writeAndFlush(tooMuch);
        assertInstanceOf(PendingWriteLimitExceededException.class, second.cause());
        assertTrue(second.cause().getMessage().contains("10000"), second.cause().getMessage());
        assertEquals(0, tooMuch.refCnt());
        assertTrue(client.channel.isOpen());

        TlsPeer.exchange(client, server);
        assertTrue(first.isSuccess());
        assertEquals(6000, server.received.size());
        // The limit is for the handshake only: afterwards writes wait for flush() alone.
        client.channel.write(Unpooled.wrappedBuffer(new byte[12_000]));
        client.channel.flush();
        TlsPeer.exchange(client, server);
        assertEquals(18_000, server.received.size());
        server.dispose();
        client.dispose();
    }
}
