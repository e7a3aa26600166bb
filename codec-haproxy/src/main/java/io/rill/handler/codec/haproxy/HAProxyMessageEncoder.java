package io.rill.handler.codec.haproxy;

import java.nio.charset.StandardCharsets;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.MessageToByteEncoder;

/**
 * Writes a PROXY header in the version its {@link HAProxyMessage} names, as a load balancer or a
 * client behind one sends it first on a connection. A CRC32c TLV in the message is filled in with
 * the checksum of the header written (its value in the message is ignored). Stateless: share {@link #INSTANCE}.
 */
@ChannelHandler.Sharable
public final class HAProxyMessageEncoder extends MessageToByteEncoder<HAProxyMessage> {

    /** The shared instance. */
    public static final HAProxyMessageEncoder INSTANCE = new HAProxyMessageEncoder();

    private HAProxyMessageEncoder() {
        super(HAProxyMessage.class, false);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, HAProxyMessage msg, ByteBuf out) {
        if (msg.version() == HAProxyProtocolVersion.V1) {
            String line = msg.protocol() == HAProxyProxiedProtocol.UNKNOWN ? "PROXY UNKNOWN\r\n"
                    : "PROXY " + msg.protocol() + " " + msg.sourceAddress() + " " + msg.destinationAddress() + " "
                            + msg.sourcePort() + " " + msg.destinationPort() + "\r\n";
            out.writeBytes(line.getBytes(StandardCharsets.US_ASCII));
            return;
        }
        int start = out.writerIndex();
        out.writeBytes(HAProxyParser.V2_SIGNATURE);
        out.writeByte(0x20 | (msg.command() == HAProxyCommand.PROXY ? 1 : 0));
        HAProxyProxiedProtocol protocol = msg.command() == HAProxyCommand.LOCAL ? HAProxyProxiedProtocol.UNKNOWN
                : msg.protocol();
        out.writeByte(protocol.code());
        int lengthIndex = out.writerIndex();
        out.writeShort(0);
        if (protocol.isIpv4() || protocol.isIpv6()) {
            boolean v6 = protocol.isIpv6();
            out.writeBytes(v6 ? HAProxyAddresses.ipv6(msg.sourceAddress()) : HAProxyAddresses.ipv4(msg.sourceAddress()));
            out.writeBytes(v6 ? HAProxyAddresses.ipv6(msg.destinationAddress())
                    : HAProxyAddresses.ipv4(msg.destinationAddress()));
            out.writeShort(msg.sourcePort()).writeShort(msg.destinationPort());
        } else if (protocol.isUnix()) {
            writeUnixPath(out, msg.sourceAddress());
            writeUnixPath(out, msg.destinationAddress());
        }
        int crcValueIndex = -1;
        for (HAProxyTlv tlv : msg.tlvs()) {
            out.writeByte(tlv.type()).writeShort(tlv.value().length);
            if (tlv.type() == HAProxyTlv.TYPE_CRC32C && tlv.value().length == 4) {
                crcValueIndex = out.writerIndex();
                out.writeInt(0);
            } else {
                out.writeBytes(tlv.value());
            }
        }
        int length = out.writerIndex() - start - 16;
        if (length > 0xFFFF) {
            throw new IllegalArgumentException("PROXY v2 header body of " + length + " bytes (at most 65535)");
        }
        out.setShort(lengthIndex, length);
        if (crcValueIndex >= 0) {
            HAProxyParser.fillCrc(out, start, out.writerIndex(), crcValueIndex);
        }
    }

    private static void writeUnixPath(ByteBuf out, String path) {
        byte[] bytes = path.getBytes(StandardCharsets.UTF_8);
        out.writeBytes(bytes).writeZero(HAProxyAddresses.UNIX_PATH_BYTES - bytes.length);
    }
}
