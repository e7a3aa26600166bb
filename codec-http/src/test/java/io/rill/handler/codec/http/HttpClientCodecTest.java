package io.rill.handler.codec.http;

import static io.rill.handler.codec.http.HttpCodecTestSupport.bytes;
import static io.rill.handler.codec.http.HttpCodecTestSupport.outbound;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * The client codec pairs final responses with the requests they answer.
 *
 * <p>A test named after a case ID ({@code h1_17_...}) checks that case of docs/security-cases.md.
 */
class HttpClientCodecTest {

    private static List<String> exchange(EmbeddedChannel ch, String responses, HttpRequest... requests) {
        for (HttpRequest r : requests) {
            ch.writeOutbound(r);
        }
        outbound(ch);
        ch.writeInbound(bytes(responses));
        List<String> got = new ArrayList<>();
        for (Object msg; (msg = ch.readInbound()) != null; ) {
            if (msg instanceof HttpResponse r) {
                got.add(r.decoderResult().isFailure() ? "failed" : String.valueOf(r.status().code()));
            }
            if (msg instanceof HttpContent c && c.content().isReadable()) {
                got.add("body " + c.content().toString(StandardCharsets.US_ASCII));
            }
            if (msg instanceof ByteBuf raw) {
                got.add("raw " + raw.toString(StandardCharsets.US_ASCII));
            }
            io.rill.buffer.ReferenceCountUtil.release(msg);
        }
        return got;
    }

    private static HttpRequest request(HttpMethod method) {
        return new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, "/");
    }

    @Test
    void h1_14_interimResponsesDoNotConsumeARequest() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpClientCodec());
        assertEquals(List.of("103", "200", "body hello", "200", "204"),
                exchange(ch, "HTTP/1.1 103 Early Hints\r\nLink: </s.css>\r\n\r\n"
                        + "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
                        + "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"
                        + "HTTP/1.1 204 No Content\r\n\r\n",
                        request(HttpMethod.GET), request(HttpMethod.HEAD), request(HttpMethod.DELETE)));
        ch.finish();
    }

    @Test
    void s14_aResponseWithBothLengthsFails() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpClientCodec());
        assertEquals(List.of("failed"), exchange(ch,
                "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", request(HttpMethod.GET)));
        ch.finish();
    }

    @Test
    void aStatusCodeOutsideTheRangeFailsTheResponse() {
        // RFC 9110 §15; 604 escaped as an IllegalArgumentException before (found by HttpDifferentialTest).
        for (String code : new String[] {"600", "604", "999", "099"}) {
            EmbeddedChannel ch = new EmbeddedChannel(new HttpClientCodec());
            assertEquals(List.of("failed"), exchange(ch, "HTTP/1.1 " + code + " X\r\nContent-Length: 0\r\n\r\n",
                    request(HttpMethod.GET)), code);
            ch.finish();
        }
    }

    @Test
    void a101IsTakenOnlyForARequestThatOfferedAnUpgrade() {
        // RFC 9110 §15.2.2; llhttp and h11 refuse the unasked one too (found by HttpDifferentialTest).
        EmbeddedChannel ch = new EmbeddedChannel(new HttpClientCodec());
        assertEquals(List.of("failed"), exchange(ch, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n",
                request(HttpMethod.GET)));
        ch.finish();
        ch = new EmbeddedChannel(new HttpClientCodec());
        HttpRequest offer = request(HttpMethod.GET);
        offer.headers().set(HttpHeaderNames.UPGRADE, "x");
        offer.headers().set(HttpHeaderNames.CONNECTION, "upgrade");
        assertEquals(List.of("failed"), exchange(ch, "HTTP/1.1 101 Switching Protocols\r\n\r\n", offer));
        ch.finish();
        ch = new EmbeddedChannel(new HttpClientCodec());
        offer = request(HttpMethod.GET);
        offer.headers().set(HttpHeaderNames.UPGRADE, "x");
        assertEquals(List.of("101", "raw hi"), exchange(ch, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\nhi", offer));
        ch.finish();
    }

    @Test
    void aBodyWithoutALengthRunsToTheClose() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpClientCodec());
        List<String> got = exchange(ch, "HTTP/1.0 200 OK\r\n\r\nall of it", request(HttpMethod.GET));
        assertEquals(List.of("200", "body all of it"), got);
        ch.finish();
        for (Object msg; (msg = ch.readInbound()) != null; ) {
            assertEquals(LastHttpContent.EMPTY_LAST_CONTENT, msg);
        }
    }

    @Test
    void aConnectTunnelPassesRawBytesOn() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpClientCodec());
        assertEquals(List.of("200", "raw \u0016\u0003\u0001 tls bytes"),
                exchange(ch, "HTTP/1.1 200 Connection established\r\n\r\n\u0016\u0003\u0001 tls bytes",
                        new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.CONNECT, "example.com:443")));
        ch.finish();
    }

    /** Found by fuzzing (Http1FuzzTest corpus response/status_code_over_599): HttpResponseStatus's exception escaped the decoder. */
    @Test
    void aStatusCodeAbove599IsAFailedResponseNotAnException() {
        for (String code : List.of("600", "943", "999")) {
            List<String> decoded = HttpDecodeRun.everyWay(HttpResponseDecoder::new, "HTTP/1.1 " + code + " X\r\n\r\n");
            assertEquals(1, decoded.size(), decoded::toString);
            assertEquals(true, decoded.get(0).startsWith("FAILED "), decoded::toString);
        }
        assertEquals(List.of("HTTP/1.1 599 | content-length: 0"), HttpDecodeRun.everyWay(HttpResponseDecoder::new,
                "HTTP/1.1 599 X\r\nContent-Length: 0\r\n\r\n"));
    }
}
