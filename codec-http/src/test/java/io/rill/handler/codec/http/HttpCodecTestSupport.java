package io.rill.handler.codec.http;

import java.nio.charset.StandardCharsets;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;

/** Bytes in and out of embedded channels, as ISO-8859-1 text. */
final class HttpCodecTestSupport {

    private HttpCodecTestSupport() {
    }

    static ByteBuf bytes(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    /** Everything written out so far, joined, with the buffers released. */
    static String outbound(EmbeddedChannel ch) {
        StringBuilder sb = new StringBuilder();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            ByteBuf buf = (ByteBuf) o;
            sb.append(buf.toString(StandardCharsets.ISO_8859_1));
            buf.release();
        }
        return sb.toString();
    }
}
