package io.rill.handler.codec.haproxy;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What a PROXY protocol header says about a relayed connection. The decoder stores it in the
 * channel attribute {@link HAProxyMessageDecoder#MESSAGE}; {@code Channel.remoteAddress()} keeps
 * returning the proxy's address.
 *
 * @param version            the protocol version the header used
 * @param command            PROXY for a relayed connection, LOCAL for the proxy's own (then no addresses)
 * @param protocol           family and transport; {@link HAProxyProxiedProtocol#UNKNOWN} has no addresses
 * @param sourceAddress      the client's address: an IPv4 or IPv6 literal, a Unix socket path, or null
 * @param destinationAddress the address the client connected to, in the same form, or null
 * @param sourcePort         the client's port, 0..65535 (0 for Unix and UNKNOWN)
 * @param destinationPort    the port it connected to, 0..65535
 * @param tlvs               the version 2 TLVs, in order; empty for version 1
 */
public record HAProxyMessage(HAProxyProtocolVersion version, HAProxyCommand command, HAProxyProxiedProtocol protocol,
                             String sourceAddress, String destinationAddress, int sourcePort, int destinationPort,
                             List<HAProxyTlv> tlvs) {

    /**
     * Checks that the addresses fit the protocol and the version.
     *
     * @param version            the protocol version the header used
     * @param command            PROXY for a relayed connection, LOCAL for the proxy's own (then no addresses)
     * @param protocol           family and transport; {@link HAProxyProxiedProtocol#UNKNOWN} has no addresses
     * @param sourceAddress      the client's address: an IPv4 or IPv6 literal, a Unix socket path, or null
     * @param destinationAddress the address the client connected to, in the same form, or null
     * @param sourcePort         the client's port, 0..65535 (0 for Unix and UNKNOWN)
     * @param destinationPort    the port it connected to, 0..65535
     * @param tlvs               the version 2 TLVs, in order; empty for version 1
     */
    public HAProxyMessage {
        if (version == null || command == null || protocol == null) {
            throw new NullPointerException("version, command and protocol are required");
        }
        tlvs = List.copyOf(tlvs);
        if (version == HAProxyProtocolVersion.V1) {
            if (command != HAProxyCommand.PROXY || !(protocol == HAProxyProxiedProtocol.TCP4
                    || protocol == HAProxyProxiedProtocol.TCP6 || protocol == HAProxyProxiedProtocol.UNKNOWN)) {
                throw new IllegalArgumentException("version 1 carries PROXY with TCP4, TCP6 or UNKNOWN only");
            }
            if (!tlvs.isEmpty()) {
                throw new IllegalArgumentException("version 1 has no TLVs");
            }
        }
        if (command == HAProxyCommand.LOCAL || protocol == HAProxyProxiedProtocol.UNKNOWN) {
            if (sourceAddress != null || destinationAddress != null || sourcePort != 0 || destinationPort != 0) {
                throw new IllegalArgumentException("a LOCAL or UNKNOWN header carries no addresses");
            }
        } else {
            check(protocol, sourceAddress, "sourceAddress");
            check(protocol, destinationAddress, "destinationAddress");
            if (sourcePort < 0 || sourcePort > 0xFFFF || destinationPort < 0 || destinationPort > 0xFFFF
                    || protocol.isUnix() && (sourcePort != 0 || destinationPort != 0)) {
                throw new IllegalArgumentException("ports: " + sourcePort + ", " + destinationPort
                        + " (expected: 0..65535, 0 for Unix sockets)");
            }
        }
    }

    /**
     * A version 1 header for a TCP connection.
     *
     * @param protocol    TCP4 or TCP6
     * @param source      the client's address literal
     * @param destination the server's address literal
     * @param sourcePort      the client's port
     * @param destinationPort the server's port
     * @return the message
     */
    public static HAProxyMessage v1(HAProxyProxiedProtocol protocol, String source, String destination, int sourcePort,
                                    int destinationPort) {
        return new HAProxyMessage(HAProxyProtocolVersion.V1, HAProxyCommand.PROXY, protocol, source, destination,
                sourcePort, destinationPort, List.of());
    }

    private static void check(HAProxyProxiedProtocol protocol, String address, String name) {
        if (address == null) {
            throw new NullPointerException(name);
        }
        boolean ok;
        if (protocol.isIpv4()) {
            ok = HAProxyAddresses.ipv4(address) != null;
        } else if (protocol.isIpv6()) {
            ok = HAProxyAddresses.ipv6(address) != null;
        } else {
            ok = address.indexOf('\0') < 0
                    && address.getBytes(StandardCharsets.UTF_8).length < HAProxyAddresses.UNIX_PATH_BYTES;
        }
        if (!ok) {
            throw new IllegalArgumentException(name + " " + address + " does not fit " + protocol);
        }
    }

    /** {@return the client's socket address: an {@link InetSocketAddress}, a {@link UnixDomainSocketAddress}, or null} */
    public SocketAddress sourceSocketAddress() {
        return socketAddress(sourceAddress, sourcePort);
    }

    /** {@return the address the client connected to, in the same forms as {@link #sourceSocketAddress()}} */
    public SocketAddress destinationSocketAddress() {
        return socketAddress(destinationAddress, destinationPort);
    }

    /**
     * The first TLV of a type.
     *
     * @param type the type byte
     * @return the TLV, or null
     */
    public HAProxyTlv tlv(int type) {
        for (HAProxyTlv tlv : tlvs) {
            if (tlv.type() == type) {
                return tlv;
            }
        }
        return null;
    }

    private SocketAddress socketAddress(String address, int port) {
        if (address == null) {
            return null;
        }
        if (protocol.isUnix()) {
            return UnixDomainSocketAddress.of(address);
        }
        return new InetSocketAddress(HAProxyAddresses.inet(address, protocol.isIpv6()), port);
    }
}
