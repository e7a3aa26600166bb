package io.rill.handler.codec.dns;

import java.util.HexFormat;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;

/** Test helpers: messages to and from bytes. */
final class DnsWire {

    private DnsWire() {
    }

    static byte[] encode(DnsMessage m) {
        ByteBuf buf = Unpooled.buffer();
        try {
            DnsMessageEncoder.encode(m, buf);
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    static DnsMessage decode(byte[] bytes) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            return DnsMessageDecoder.decode(buf);
        } finally {
            buf.release();
        }
    }

    static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex.replaceAll("\\s+", ""));
    }
}
