package io.rill.handler.ipfilter;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * A CIDR subnet ({@code 192.168.0.0/16}, {@code 2001:db8::/32}) and what to do with peers in it.
 *
 * <p>Addresses are compared in canonical form: an IPv4-mapped IPv6 address
 * ({@code ::ffff:a.b.c.d}, RFC 4291 §2.5.5.2) is the IPv4 address {@code a.b.c.d}. A dual-stack
 * socket may report an IPv4 peer either way, so an IPv4 rule must match the mapped form and a
 * rule written in mapped form must match the plain IPv4 peer (docs/security-cases.md, case R-06: a
 * filter that compared raw forms let mapped peers past IPv4 reject rules). An IPv6 rule wider than
 * the mapped range ({@code ::/0}, {@code ::ffff:0:0/95}) sees IPv4 peers in their mapped form.
 *
 * <p>Immutable; ordered by network then prefix length, so a containing subnet sorts before
 * the subnets inside it.
 */
public final class IpSubnetFilterRule implements IpFilterRule, Comparable<IpSubnetFilterRule> {

    /** The 80 zero bits and 16 one bits that open an IPv4-mapped IPv6 address. */
    private static final byte[] MAPPED_PREFIX = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff};

    /** The network address, host bits cleared: 4 bytes for IPv4, 16 for IPv6. */
    private final byte[] network;
    /** Leading bits that must match; 0..32 or 0..128. */
    private final int prefixLength;
    private final IpFilterRuleType type;

    /**
     * A rule for {@code address/prefixLength}, e.g. ("10.0.0.0", 8, REJECT); the address is not resolved.
     *
     * @param address      an IPv4 or IPv6 literal
     * @param prefixLength the leading bits that must match: 0 to 32 for IPv4, 0 to 128 for IPv6
     * @param type         what the rule does with a matching peer
     * @throws IllegalArgumentException if {@code address} is not a literal or the prefix is out of range
     */
    public IpSubnetFilterRule(String address, int prefixLength, IpFilterRuleType type) {
        this(parseLiteral(address), prefixLength, type);
    }

    /**
     * A rule for {@code address/prefixLength}; the bits of {@code address} past the prefix are ignored.
     *
     * @param address      the network address
     * @param prefixLength the leading bits that must match: 0 to 32 for IPv4, 0 to 128 for IPv6
     * @param type         what the rule does with a matching peer
     * @throws IllegalArgumentException if the prefix is out of range
     * @throws NullPointerException if {@code address} or {@code type} is null
     */
    public IpSubnetFilterRule(InetAddress address, int prefixLength, IpFilterRuleType type) {
        if (address == null || type == null) {
            throw new NullPointerException(address == null ? "address" : "type");
        }
        byte[] bytes = address.getAddress();
        int maxPrefix = bytes.length * 8;
        if (prefixLength < 0 || prefixLength > maxPrefix) {
            throw new IllegalArgumentException(
                    "prefixLength: " + prefixLength + " (expected: 0-" + maxPrefix + " for " + address + ')');
        }
        if (bytes.length == 16 && prefixLength >= 96 && isMapped(bytes)) {
            // ::ffff:a.b.c.d/n is the IPv4 subnet a.b.c.d/(n-96).
            bytes = Arrays.copyOfRange(bytes, 12, 16);
            prefixLength -= 96;
        }
        this.network = mask(bytes, prefixLength);
        this.prefixLength = prefixLength;
        this.type = type;
    }

    /**
     * A rule written as {@code "address/prefix"}; a bare address means a single host.
     *
     * @param cidr e.g. {@code "192.168.0.0/16"} or {@code "2001:db8::/32"}
     * @param type what the rule does with a matching peer
     * @return the rule
     * @throws IllegalArgumentException if {@code cidr} is not an address literal with an optional valid
     *                                  prefix
     */
    public static IpSubnetFilterRule parse(String cidr, IpFilterRuleType type) {
        int slash = cidr.indexOf('/');
        if (slash < 0) {
            InetAddress address = parseLiteral(cidr);
            return new IpSubnetFilterRule(address, address.getAddress().length * 8, type);
        }
        int prefix;
        try {
            prefix = Integer.parseInt(cidr.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a CIDR subnet: '" + cidr + '\'', e);
        }
        return new IpSubnetFilterRule(cidr.substring(0, slash), prefix, type);
    }

    @Override
    public boolean matches(InetSocketAddress remoteAddress) {
        InetAddress address = remoteAddress.getAddress();
        return address != null && contains(address);
    }

    /**
     * True if {@code address} (in any form) lies in this subnet.
     *
     * @param address a peer's address
     * @return whether it lies in the subnet
     */
    public boolean contains(InetAddress address) {
        return containsCanonical(canonicalBytes(address));
    }

    boolean containsCanonical(byte[] addr) {
        if (addr.length != network.length) {
            if (network.length == 4) {
                return false; // a true IPv6 peer is never inside an IPv4 subnet
            }
            addr = toMapped(addr);
        }
        return Arrays.equals(mask(addr, prefixLength), network);
    }

    @Override
    public IpFilterRuleType ruleType() {
        return type;
    }

    /**
     * The number of leading bits that must match, in the IPv4 form for a mapped rule.
     *
     * @return the prefix length
     */
    public int prefixLength() {
        return prefixLength;
    }

    /**
     * True if this is an IPv4 subnet (mapped rules included, in their IPv4 form).
     *
     * @return whether the subnet is IPv4
     */
    public boolean isIpv4() {
        return network.length == 4;
    }

    /** Compares the network address with {@code addr} (same length), as unsigned numbers. */
    int compareNetworkTo(byte[] addr) {
        return Arrays.compareUnsigned(network, addr);
    }

    /** True if {@code other} lies wholly inside this subnet (or equals it). */
    boolean encloses(IpSubnetFilterRule other) {
        return network.length == other.network.length && prefixLength <= other.prefixLength
                && containsCanonical(other.network);
    }

    @Override
    public int compareTo(IpSubnetFilterRule o) {
        int c = Arrays.compareUnsigned(network, o.network);
        return c != 0 ? c : Integer.compare(prefixLength, o.prefixLength);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IpSubnetFilterRule r && r.prefixLength == prefixLength && r.type == type
                && Arrays.equals(r.network, network);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(network) * 31 + prefixLength * 3 + type.ordinal();
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + '/' + prefixLength + ' ' + type;
        } catch (UnknownHostException impossible) {
            throw new AssertionError(impossible);
        }
    }

    // ---------------------------------------------------------------- address forms

    /** The address bytes with an IPv4-mapped IPv6 address turned into its 4 IPv4 bytes. */
    static byte[] canonicalBytes(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (address instanceof Inet6Address && isMapped(bytes)) {
            return Arrays.copyOfRange(bytes, 12, 16);
        }
        return bytes;
    }

    /** {@code address} in canonical form: an IPv4-mapped IPv6 address becomes an {@link Inet4Address}. */
    static InetAddress canonical(InetAddress address) {
        if (address instanceof Inet6Address && isMapped(address.getAddress())) {
            try {
                return InetAddress.getByAddress(canonicalBytes(address));
            } catch (UnknownHostException impossible) {
                throw new AssertionError(impossible);
            }
        }
        return address;
    }

    private static boolean isMapped(byte[] bytes) {
        return bytes.length == 16 && Arrays.equals(bytes, 0, 12, MAPPED_PREFIX, 0, 12);
    }

    private static byte[] toMapped(byte[] ipv4) {
        byte[] mapped = Arrays.copyOf(MAPPED_PREFIX, 16);
        System.arraycopy(ipv4, 0, mapped, 12, 4);
        return mapped;
    }

    /** A copy of {@code bytes} with every bit after the first {@code prefixLength} cleared. */
    private static byte[] mask(byte[] bytes, int prefixLength) {
        byte[] masked = bytes.clone();
        for (int i = 0; i < masked.length; i++) {
            int keep = Math.max(0, Math.min(8, prefixLength - i * 8));
            masked[i] &= (byte) (0xff00 >>> keep);
        }
        return masked;
    }

    /** Parses an IP literal without ever touching DNS: a host name is an error, not a lookup. */
    private static InetAddress parseLiteral(String address) {
        if (address == null) {
            throw new NullPointerException("address");
        }
        String s = address.startsWith("[") && address.endsWith("]") ? address.substring(1, address.length() - 1) : address;
        boolean literal = !s.isEmpty() && (s.indexOf(':') >= 0 || s.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9')));
        if (!literal) {
            throw new IllegalArgumentException("not an IP address literal: '" + address + '\'');
        }
        try {
            InetAddress parsed = InetAddress.getByName(s);
            if (parsed instanceof Inet4Address && s.indexOf(':') >= 0) {
                // The JDK turns "::ffff:a.b.c.d" into IPv4; keep the IPv6 form so a /96+ prefix still fits.
                return Inet6Address.getByAddress(null, toMapped(parsed.getAddress()), -1);
            }
            return parsed;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address literal: '" + address + '\'', e);
        }
    }
}
