package io.rill.handler.codec.http2;

import static io.rill.handler.codec.http2.PeerDriver.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rill.channel.AttributeKey;
import io.rill.channel.ChannelOption;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.util.concurrent.Future;

/** The client side: streams opened with {@link Http2StreamChannelBootstrap}, driven frame by frame. */
class Http2StreamChannelBootstrapTest {

    private static final Http2Config CONFIG = new Http2Config(false, 100, 65_535, 65_535, 8192, 4096, 10_000);
    private static final AttributeKey<String> NAME = AttributeKey.valueOf("Http2StreamChannelBootstrapTest.name");

    private final EmbeddedChannel channel = new EmbeddedChannel(
            new Http2FrameCodec(CONFIG, new TextFieldCodec(), new TextFieldCodec()), new Http2MultiplexHandler(null));
    private final PeerDriver peer = new PeerDriver(channel, false);
    private final List<StreamRecorder> streams = new ArrayList<>();

    @AfterEach
    void release() {
        streams.forEach(s -> s.channel.close());
        channel.finishAndReleaseAll();
        peer.release();
    }

    @Test
    void anOpenedStreamKnowsItsIdAndSendsItsRequestUnderIt() throws Exception {
        peer.handshake();
        StreamRecorder first = open();
        StreamRecorder second = open();
        assertEquals(1, first.channel.streamId());
        assertEquals(3, second.channel.streamId());
        assertEquals(List.of("ACTIVE"), first.take());
        assertEquals(List.of(), peer.outbound(), "nothing goes out before the first HEADERS");

        first.channel.writeAndFlush(new Http2HeadersFrame(0, request("GET", "/one"), true));
        second.channel.writeAndFlush(new Http2HeadersFrame(0, request("GET", "/two"), true));
        assertEquals(List.of(
                "HEADERS 1 Http2Headers[:method: GET, :scheme: http, :authority: localhost, :path: /one] END_STREAM",
                "HEADERS 3 Http2Headers[:method: GET, :scheme: http, :authority: localhost, :path: /two] END_STREAM"),
                peer.outbound());

        peer.inbound(out -> {
            peer.writer.writeHeaders(out, 3, new Http2Headers().status("200"), false);
            peer.writer.writeDataHeader(out, 3, 5, true);
            out.writeZero(5);
            peer.writer.writeHeaders(out, 1, new Http2Headers().status("404"), true);
        });
        assertEquals(List.of("HEADERS 404 END", "COMPLETE", "INACTIVE"), first.take());
        assertEquals(List.of("ACTIVE", "HEADERS 200", "DATA 5 END", "COMPLETE", "INACTIVE"), second.take());
    }

    @Test
    void optionsAndAttributesAreSetBeforeTheHandlerSeesTheStream() throws Exception {
        peer.handshake();
        StreamRecorder stream = new StreamRecorder();
        Future<Http2StreamChannel> f = new Http2StreamChannelBootstrap(channel).handler(stream)
                .option(ChannelOption.AUTO_READ, false).attr(NAME, "upload").open();
        streams.add(stream);
        Http2StreamChannel child = f.getNow();
        assertFalse(child.config().isAutoRead());
        assertEquals("upload", child.attr(NAME).get());
        assertEquals(channel.alloc(), child.alloc());
    }

    @Test
    void aStreamStartedAfterALaterOneFailsWithoutReachingThePeer() throws Exception {
        peer.handshake();
        StreamRecorder first = open();
        StreamRecorder second = open();
        second.channel.writeAndFlush(new Http2HeadersFrame(0, request("GET", "/two"), true));
        Future<Void> late = first.channel.writeAndFlush(new Http2HeadersFrame(0, request("GET", "/one"), true));
        assertFalse(late.isSuccess());
        assertInstanceOf(IllegalStateException.class, late.cause());
        assertFalse(first.channel.isOpen());
        List<String> sent = peer.outbound();
        assertEquals(1, sent.size(), sent.toString());
        assertTrue(sent.get(0).startsWith("HEADERS 3 "), sent.toString());
        assertTrue(channel.isOpen());
    }

    @Test
    void aGoAwayRefusesTheStreamsThePeerDidNotProcess() throws Exception {
        peer.handshake();
        StreamRecorder first = open();
        StreamRecorder second = open();
        first.channel.writeAndFlush(new Http2HeadersFrame(0, request("GET", "/one"), true));
        second.channel.writeAndFlush(new Http2HeadersFrame(0, request("GET", "/two"), true));
        peer.outbound();
        first.take();
        second.take();
        peer.inbound(out -> peer.writer.writeGoAway(out, 1, Http2Error.NO_ERROR, "bye"));
        assertTrue(first.channel.isOpen(), "stream 1 was processed: its response is still to come");
        assertEquals(List.of("RESET REFUSED_STREAM", "INACTIVE"), second.take());
        assertInstanceOf(Http2GoAwayFrame.class, channel.readInbound(), "GOAWAY goes on up the connection's pipeline");
    }

    @Test
    void aStreamBeyondThePeersConcurrencyLimitIsRefusedWithoutReachingThePeer() throws Exception {
        peer.inbound(out -> {
            peer.writer.writeSettings(out, new Http2Settings().put(Http2Settings.MAX_CONCURRENT_STREAMS, 1));
            peer.writer.writeSettingsAck(out);
        });
        peer.outbound();
        StreamRecorder first = open();
        StreamRecorder second = open();
        first.channel.writeAndFlush(new Http2HeadersFrame(0, request("GET", "/one"), true));
        Future<Void> refused = second.channel.writeAndFlush(new Http2HeadersFrame(0, request("GET", "/two"), true));
        assertInstanceOf(Http2Exception.class, refused.cause());
        assertEquals("the peer allows only 1 concurrent streams", refused.cause().getMessage());
        assertFalse(second.channel.isOpen());
        channel.runPendingTasks();
        assertEquals(List.of("ACTIVE", "INACTIVE"), second.take());
        List<String> sent = peer.outbound();
        assertEquals(1, sent.size(), "no HEADERS and no RST_STREAM for stream 3: " + sent);
    }

    @Test
    void openingFailsWithoutAHandler() {
        Future<Http2StreamChannel> f = new Http2StreamChannelBootstrap(channel).open();
        assertInstanceOf(IllegalStateException.class, f.cause());
    }

    @Test
    void aStreamTheServerOpensWithoutPushIsAConnectionError() throws Exception {
        peer.handshake();
        peer.inbound(out -> peer.writer.writeHeaders(out, 2, new Http2Headers().status("200"), true));
        assertEquals(List.of("GOAWAY 0 PROTOCOL_ERROR"), peer.outbound());
        assertFalse(channel.isOpen());
    }

    private StreamRecorder open() {
        StreamRecorder stream = new StreamRecorder();
        Future<Http2StreamChannel> f = new Http2StreamChannelBootstrap(channel).handler(stream).open();
        assertTrue(f.isSuccess(), () -> String.valueOf(f.cause()));
        assertEquals(f.getNow(), stream.channel);
        streams.add(stream);
        return stream;
    }
}
