package io.rill.handler.ssl;

import static io.rill.handler.ssl.SslHandlerTest.hex;
import static io.rill.handler.ssl.TlsFixtures.LOCALHOST;
import static io.rill.handler.ssl.TlsFixtures.build;
import static io.rill.handler.ssl.TlsFixtures.clientTrusting;
import static io.rill.handler.ssl.TlsFixtures.serverBuilder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.security.cert.X509Certificate;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rill.buffer.ByteBufAllocator;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.CorruptedFrameException;
import io.rill.handler.codec.TooLongFrameException;
import io.rill.handler.ssl.util.SelfSignedCertificate;

/**
 * SNI routing and the ClientHello parser's bounds (docs/security-cases.md, cases T-03 to T-06 and
 * TL-05).
 */
class SniHandlerTest {
    /** The provider under test; a subclass reruns every test with another. */
    SslProvider provider() {
        return SslProvider.JDK;
    }

    @org.junit.jupiter.api.BeforeEach
    void selectProvider() {
        TlsFixtures.provider = provider();
    }


    private static final SelfSignedCertificate PROTECTED = SelfSignedCertificate.builder()
            .dnsNames("protected.test").ipAddresses().build();

    private static final SslContext DEFAULT_CONTEXT = build(serverBuilder(LOCALHOST));
    private static final SslContextMapping MAPPING = SslContextMapping.builder(DEFAULT_CONTEXT)
            .add("protected.test", build(serverBuilder(PROTECTED)))
            .add("*.wild.test", build(serverBuilder(TlsFixtures.OTHER_HOST)))
            .build();

    private static TlsPeer client(SelfSignedCertificate trusted, String host) {
        return new TlsPeer(build(clientTrusting(trusted).endpointIdentificationAlgorithm(null))
                .newHandler(ByteBufAllocator.DEFAULT, host, 443));
    }

    private static X509Certificate servedCertificate(TlsPeer client) throws Exception {
        return (X509Certificate) client.handler().engine().getSession().getPeerCertificates()[0];
    }

    private static SniCompletionEvent sniEvent(TlsPeer server) {
        return (SniCompletionEvent) server.events.stream().filter(SniCompletionEvent.class::isInstance)
                .findFirst().orElseThrow();
    }

    /** Re-cuts the handshake records of {@code wire} into records of at most {@code size} bytes of fragment. */
    static byte[] refragment(byte[] wire, int size) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int p = 0;
        while (p + 5 <= wire.length) {
            int type = wire[p] & 0xFF;
            int length = ((wire[p + 3] & 0xFF) << 8) | (wire[p + 4] & 0xFF);
            for (int i = 0; i < length; i += size) {
                int n = Math.min(size, length - i);
                out.write(type);
                out.write(wire[p + 1]);
                out.write(wire[p + 2]);
                out.write(n >> 8);
                out.write(n);
                out.write(wire, p + 5 + i, n);
            }
            p += 5 + length;
        }
        return out.toByteArray();
    }

    @Test
    void theServerNameChoosesTheContext() throws Exception {
        TlsPeer server = new TlsPeer(new SniHandler(MAPPING));
        TlsPeer client = client(PROTECTED, "protected.test");
        TlsPeer.exchange(client, server);
        assertTrue(client.handshakeSucceeded());
        assertEquals(PROTECTED.certificate(), servedCertificate(client));
        assertEquals("protected.test", sniEvent(server).hostname());
        server.dispose();
        client.dispose();
    }

    @Test
    void wildcardsMatchOneLabelAndUnknownOrMissingNamesGetTheDefault() throws Exception {
        assertEquals(MAPPING.apply("other.test"), DEFAULT_CONTEXT);
        assertEquals(MAPPING.apply("deep.a.wild.test"), DEFAULT_CONTEXT);
        TlsPeer server = new TlsPeer(new SniHandler(MAPPING));
        TlsPeer client = client(TlsFixtures.OTHER_HOST, "a.wild.test");
        TlsPeer.exchange(client, server);
        assertEquals(TlsFixtures.OTHER_HOST.certificate(), servedCertificate(client));
        server.dispose();
        client.dispose();

        server = new TlsPeer(new SniHandler(MAPPING));
        client = client(LOCALHOST, "127.0.0.1"); // an IP literal: no server_name is sent
        TlsPeer.exchange(client, server);
        assertEquals(LOCALHOST.certificate(), servedCertificate(client));
        assertNull(sniEvent(server).hostname());
        server.dispose();
        client.dispose();
    }

    @Test
    @DisplayName("T-06: a client hello split after ten bytes still routes by its server name")
    void aClientHelloSplitAfterTenBytesStillRoutesByItsServerName() throws Exception {
        // T-06: the protected host's context, never the default, for a fragmented hello.
        TlsPeer server = new TlsPeer(new SniHandler(MAPPING));
        TlsPeer client = client(PROTECTED, "protected.test");
        byte[] hello = client.drainOutbound();
        int length = hello.length - 5;
        byte[] split = new byte[hello.length + 5];
        System.arraycopy(hello, 0, split, 0, 5 + 10);
        split[3] = 0;
        split[4] = 10;
        System.arraycopy(hello, 0, split, 15, 5);
        split[18] = (byte) ((length - 10) >> 8);
        split[19] = (byte) (length - 10);
        System.arraycopy(hello, 15, split, 20, length - 10);
        server.feed(split);
        assertEquals("protected.test", sniEvent(server).hostname());
        TlsPeer.exchange(client, server);
        assertTrue(client.handshakeSucceeded());
        assertEquals(PROTECTED.certificate(), servedCertificate(client));
        server.dispose();
        client.dispose();
    }

    @Test
    @DisplayName("TL-05, T-05: every handshake record in one byte records and one byte writes completes")
    void everyHandshakeRecordInOneByteRecordsAndOneByteWritesCompletes() throws Exception {
        // TL-05 / T-05: the ClientHello in 1-byte records (later flights are encrypted and cannot be
        // re-cut), every flight in 1-byte writes.
        TlsPeer server = new TlsPeer(new SniHandler(MAPPING));
        TlsPeer client = client(PROTECTED, "protected.test");
        for (int round = 0; round < 10 && !(client.handshakeSucceeded() && server.handshakeSucceeded()); round++) {
            byte[] flight = client.drainOutbound();
            for (byte b : round == 0 ? refragment(flight, 1) : flight) {
                server.feed(new byte[] {b});
            }
            for (byte b : server.drainOutbound()) {
                client.feed(new byte[] {b});
            }
        }
        assertTrue(client.handshakeSucceeded() && server.handshakeSucceeded());
        assertEquals("protected.test", sniEvent(server).hostname());
        assertEquals(PROTECTED.certificate(), servedCertificate(client));
        server.dispose();
        client.dispose();
    }

    @Test
    @Timeout(20)
    @DisplayName("T-05: a large hello in one byte records is reassembled in linear time")
    void aLargeHelloInOneByteRecordsIsReassembledInLinearTime() {
        // T-05: 60 000 body bytes in 60 004 one-byte records (360 KB), read 600 bytes at a time.
        int body = 60_000;
        ByteArrayOutputStream fragments = new ByteArrayOutputStream();
        byte[] header = {1, 0, (byte) (body >> 8), (byte) body};
        for (int i = 0; i < 4 + body; i++) {
            fragments.writeBytes(new byte[] {0x16, 3, 1, 0, 1, i < 4 ? header[i] : 0});
        }
        byte[] wire = fragments.toByteArray();
        TlsPeer server = new TlsPeer(new SniHandler(MAPPING));
        for (int i = 0; i < wire.length && server.channel.isOpen(); i += 600) {
            server.feed(java.util.Arrays.copyOfRange(wire, i, Math.min(wire.length, i + 600)));
        }
        // Reassembled whole: a hello without extensions (no server name) goes to the default
        // context's SslHandler, which refuses the zeroed body.
        assertTrue(sniEvent(server).isSuccess());
        assertNull(sniEvent(server).hostname());
        assertFalse(server.channel.isOpen());
        assertFalse(server.handler().handshakeFuture().isSuccess());
        server.dispose();
    }

    @Test
    @DisplayName("T-03, T-04: a huge declared hello is refused at once by the default constructor")
    void aHugeDeclaredHelloIsRefusedAtOnceByTheDefaultConstructor() {
        // T-03 / T-04: 16 03 01 00 04 01 FF FF FF declares a 16 MiB ClientHello.
        TlsPeer server = new TlsPeer(new SniHandler(MAPPING));
        server.feed(hex("16 03 01 00 04 01 FF FF FF"));
        assertFalse(server.channel.isOpen());
        assertInstanceOf(TooLongFrameException.class, sniEvent(server).cause());
        assertTrue(sniEvent(server).cause().getMessage().contains("65536"));
        server.dispose();
    }

    @Test
    @DisplayName("T-03, T-04: a partial hello then silence times out with the default constructor")
    void aPartialHelloThenSilenceTimesOutWithTheDefaultConstructor() {
        // T-03 / T-04: the timeout applies even to the default constructor.
        SniHandler sni = new SniHandler(MAPPING);
        assertEquals(10_000, sni.handshakeTimeoutMillis());
        TlsPeer server = new TlsPeer(sni);
        server.feed(hex("16 03 01 00 04 01 00 01 00"));
        server.channel.advanceTimeBy(9_999, TimeUnit.MILLISECONDS);
        server.channel.runPendingTasks();
        assertTrue(server.channel.isOpen());
        server.channel.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        server.channel.runPendingTasks();
        assertFalse(server.channel.isOpen());
        assertInstanceOf(SslHandshakeTimeoutException.class, sniEvent(server).cause());
        server.dispose();
    }

    @Test
    void plaintextAndMalformedNamesFailClosed() {
        TlsPeer server = new TlsPeer(new SniHandler(MAPPING));
        server.feed("GET / HTTP/1.1\r\n\r\n".getBytes());
        assertFalse(server.channel.isOpen());
        assertInstanceOf(NotSslRecordException.class, sniEvent(server).cause());
        server.dispose();

        // A minimal hello whose server_name holds a NUL byte: refused, not routed to the default.
        byte[] body = hex("03 03" + " 00".repeat(32) + " 00 00 02 13 01 01 00"
                + " 00 0c  00 00 00 08 00 06 00 00 03 61 00 62");
        byte[] wire = new byte[9 + body.length];
        wire[0] = 0x16;
        wire[1] = 3;
        wire[2] = 1;
        wire[3] = (byte) ((body.length + 4) >> 8);
        wire[4] = (byte) (body.length + 4);
        wire[5] = 1;
        wire[7] = (byte) (body.length >> 8);
        wire[8] = (byte) body.length;
        System.arraycopy(body, 0, wire, 9, body.length);
        server = new TlsPeer(new SniHandler(MAPPING));
        server.feed(wire);
        assertFalse(server.channel.isOpen());
        assertInstanceOf(CorruptedFrameException.class, sniEvent(server).cause());
        assertTrue(sniEvent(server).cause().getMessage().contains("0x0"), sniEvent(server).cause().getMessage());
        server.dispose();
    }

    @Test
    void alpnNegotiationConfiguresThePipelineForTheChosenProtocol() {
        SslContext server = build(serverBuilder(LOCALHOST).applicationProtocols("h2", "http/1.1"));
        SslContext client = build(clientTrusting(LOCALHOST).applicationProtocols("h2"));
        String[] chosen = new String[1];
        ApplicationProtocolNegotiationHandler negotiation = new ApplicationProtocolNegotiationHandler("http/1.1") {
            @Override
            protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
                chosen[0] = protocol;
            }
        };
        SslHandler serverSsl = server.newHandler(ByteBufAllocator.DEFAULT);
        TlsPeer s = new TlsPeer(serverSsl);
        s.channel.pipeline().addAfter(s.channel.pipeline().context(serverSsl).name(), "alpn", negotiation);
        TlsPeer c = new TlsPeer(client.newHandler(ByteBufAllocator.DEFAULT, "localhost", 443));
        TlsPeer.exchange(c, s);
        c.write("hello after alpn");
        TlsPeer.exchange(c, s);
        assertEquals("h2", chosen[0]);
        assertNull(s.channel.pipeline().get("alpn"), "removed itself");
        assertEquals("hello after alpn", s.receivedText());
        s.dispose();
        c.dispose();
    }

    @Test
    void alpnFallsBackWhenNothingWasNegotiatedAndClosesOnFailure() {
        String[] chosen = new String[1];
        EmbeddedChannel ch = new EmbeddedChannel(new ApplicationProtocolNegotiationHandler("http/1.1") {
            @Override
            protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
                chosen[0] = protocol;
            }
        });
        ch.pipeline().fireUserEventTriggered(SslHandshakeCompletionEvent.SUCCESS);
        assertEquals("http/1.1", chosen[0]);
        ch.finishAndReleaseAll();

        EmbeddedChannel failing = new EmbeddedChannel(new ApplicationProtocolNegotiationHandler("http/1.1") {
            @Override
            protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
                throw new AssertionError("not on failure");
            }
        });
        failing.pipeline().fireUserEventTriggered(new SslHandshakeCompletionEvent(new javax.net.ssl.SSLException("x")));
        assertFalse(failing.isOpen());
        failing.finishAndReleaseAll();
    }
}
