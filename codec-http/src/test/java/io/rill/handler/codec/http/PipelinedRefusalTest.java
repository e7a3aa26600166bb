package io.rill.handler.codec.http;

import static io.rill.handler.codec.http.HttpCodecTestSupport.bytes;
import static io.rill.handler.codec.http.HttpCodecTestSupport.outbound;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * RFC 9112 §9.3.2: requests pipelined ahead of a bad one are answered, in order, before the
 * refusal, whatever position the bad request takes and however the bytes are cut.
 */
class PipelinedRefusalTest {

    private static final String[] GOOD = {
        "GET /a HTTP/1.1\r\nHost: a\r\n\r\n",
        "POST /b HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc",
        "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n",
    };

    static Stream<Arguments> badRequests() {
        return Stream.of(
                Arguments.of("BLAH\r\n\r\n", "400 Bad Request"),
                Arguments.of("GET /v HTTP/9.9\r\nHost: a\r\n\r\n", "505 HTTP Version Not Supported"),
                // a POST without a body, then chunk bytes the client meant as its body
                Arguments.of("POST /echo HTTP/1.1\r\nHost: a\r\n\r\n5\r\nhello\r\n0\r\n\r\n", "/echo|400 Bad Request"),
                // a body that breaks: its request is answered by the refusal
                Arguments.of("POST /d HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX", "400 Bad Request"));
    }

    @ParameterizedTest
    @MethodSource("badRequests")
    void requestsBeforeABadOneAreAnsweredInOrderAtEveryPositionAndSplit(String bad, String refusal) {
        for (int position = 0; position <= GOOD.length; position++) {
            List<String> expected = new ArrayList<>();
            StringBuilder input = new StringBuilder();
            for (int i = 0; i < position; i++) {
                input.append(GOOD[i]);
                expected.add(GOOD[i].substring(GOOD[i].indexOf(' ') + 1, GOOD[i].indexOf(" HTTP/")));
            }
            input.append(bad).append(GOOD[0]); // what follows the bad request is never served
            expected.addAll(List.of(refusal.split("\\|")));
            byte[] wire = input.toString().getBytes(StandardCharsets.ISO_8859_1);
            for (int split = 0; split < wire.length; split++) {
                assertEquals(expected, serve(wire, split), "bad request at " + position + ", split at " + split);
            }
        }
    }

    @Test
    void aRefusalWaitsForAResponseTheApplicationWritesLater() {
        List<ChannelHandlerContext> pending = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof HttpRequest) {
                    pending.add(ctx);
                }
                ReferenceCountUtil.release(msg);
            }
        });
        ch.writeInbound(bytes("GET /a HTTP/1.1\r\nHost: a\r\n\r\nBLAH\r\n\r\n"));
        assertEquals("", outbound(ch), "nothing is said before /a is answered");
        assertFalse(ch.config().isAutoRead(), "nothing more is read");
        pending.get(0).writeAndFlush(response("/a"));
        String wire = outbound(ch);
        assertEquals(List.of("/a", "400 Bad Request"), answers(wire), wire);
        assertFalse(ch.isOpen());
        ch.finish();
    }

    @Test
    void aClientGetsTheResponsesBeforeGarbageThenTheFailureAtEverySplit() {
        byte[] wire = ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi" + "HTTP/1.1 204 No Content\r\n\r\n"
                + "BLAH\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        for (int split = 0; split < wire.length; split++) {
            EmbeddedChannel ch = new EmbeddedChannel(new HttpClientCodec());
            for (int i = 0; i < 3; i++) {
                ch.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/" + i));
            }
            outbound(ch);
            ch.writeInbound(Unpooled.copiedBuffer(wire, 0, split));
            ch.writeInbound(Unpooled.copiedBuffer(wire, split, wire.length - split));
            List<String> seen = new ArrayList<>();
            StringBuilder body = new StringBuilder();
            for (Object msg; (msg = ch.readInbound()) != null; ) {
                HttpObject http = (HttpObject) msg;
                if (http.decoderResult().isFailure()) {
                    seen.add("failed");
                } else if (msg instanceof HttpResponse response) {
                    seen.add(String.valueOf(response.status().code()));
                } else if (msg instanceof HttpContent content) {
                    body.append(content.content().toString(StandardCharsets.US_ASCII));
                }
                ReferenceCountUtil.release(msg);
            }
            assertEquals(List.of("200", "204", "failed"), seen, "split at " + split);
            assertEquals("hi", body.toString(), "split at " + split);
            ch.finishAndReleaseAll();
        }
    }

    /** Serves {@code wire} cut at {@code split} (copied: the decoder owns and may move what it is given) to an application that answers each request with its target. */
    private static List<String> serve(byte[] wire, int split) {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new TargetEcho());
        StringBuilder out = new StringBuilder();
        ch.writeInbound(Unpooled.copiedBuffer(wire, 0, split));
        out.append(outbound(ch));
        if (ch.isOpen()) {
            ch.writeInbound(Unpooled.copiedBuffer(wire, split, wire.length - split));
            out.append(outbound(ch));
        }
        assertFalse(ch.isOpen(), "closed after the refusal");
        ch.finishAndReleaseAll();
        return answers(out.toString());
    }

    /** Each response on the wire: its body for a 200, its status line's status otherwise. */
    private static List<String> answers(String wire) {
        List<String> answers = new ArrayList<>();
        for (String response : wire.split("(?=HTTP/1\\.1 )")) {
            if (response.isEmpty()) {
                continue;
            }
            String status = response.substring(9, response.indexOf("\r\n"));
            answers.add(status.equals("200 OK") ? response.substring(response.indexOf("\r\n\r\n") + 4) : status);
        }
        return answers;
    }

    private static FullHttpResponse response(String body) {
        return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, bytes(body));
    }

    /** Answers each request, once its body has arrived whole, with its target. */
    private static final class TargetEcho implements ChannelHandler {
        private String target;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof HttpRequest request) {
                    target = request.uri();
                }
                if (msg instanceof LastHttpContent last && last.decoderResult().isSuccess()) {
                    ctx.writeAndFlush(response(target));
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }
    }
}
