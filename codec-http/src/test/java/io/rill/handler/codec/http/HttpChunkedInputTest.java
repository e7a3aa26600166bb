package io.rill.handler.codec.http;

import static io.rill.handler.codec.http.HttpCodecTestSupport.outbound;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;

import org.junit.jupiter.api.Test;

import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.stream.ChunkedStream;
import io.rill.handler.stream.ChunkedWriteHandler;

/** A chunked input as HTTP pieces through ChunkedWriteHandler and the encoder. */
class HttpChunkedInputTest {

    @Test
    void writesAChunkedBodyWithTrailers() throws Exception {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpResponseEncoder(), new ChunkedWriteHandler());
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setTransferEncodingChunked(head, true);
        HttpHeaders trailers = new HttpHeaders().add("x-done", "yes");
        HttpChunkedInput input = new HttpChunkedInput(new ChunkedStream(new ByteArrayInputStream("abcdefghij".getBytes()), 4),
                new DefaultLastHttpContent(io.rill.buffer.Unpooled.EMPTY_BUFFER, trailers));
        assertEquals(-1, input.length());
        ch.writeOutbound(head, input);
        String wire = outbound(ch);
        assertTrue(wire.endsWith("\r\n\r\n4\r\nabcd\r\n4\r\nefgh\r\n2\r\nij\r\n0\r\nx-done: yes\r\n\r\n"), wire);
        assertTrue(input.isEndOfInput());
        assertEquals(10, input.progress());
        assertFalse(ch.finish());
    }
}
