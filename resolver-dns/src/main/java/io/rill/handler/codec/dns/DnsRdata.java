package io.rill.handler.codec.dns;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The data of one record, decoded by its type. Types without their own form are {@link Raw}
 * (RFC 3597), so every record survives a decode and re-encode.
 */
public sealed interface DnsRdata {

    /**
     * A (4 octets) or AAAA (16 octets).
     *
     * @param address the address
     */
    record Address(InetAddress address) implements DnsRdata {
        @Override
        public String toString() {
            return address.getHostAddress();
        }
    }

    /**
     * CNAME, NS or PTR: one domain name.
     *
     * @param target the name, absolute
     */
    record Name(String target) implements DnsRdata {
        /**
         * Checks the name.
         *
         * @param target the name, absolute
         */
        public Name {
            DnsNames.checkName(target);
        }

        @Override
        public String toString() {
            return target;
        }
    }

    /**
     * MX (RFC 1035 §3.3.9).
     *
     * @param preference lower is preferred
     * @param exchange the mail server's name
     */
    record Mx(int preference, String exchange) implements DnsRdata {
        /**
         * Checks the name.
         *
         * @param preference lower is preferred
         * @param exchange the mail server's name
         */
        public Mx {
            DnsNames.checkName(exchange);
        }
    }

    /**
     * TXT: one or more character-strings of up to 255 octets, each held as ISO-8859-1 so every
     * octet maps to one char and back.
     *
     * @param strings the strings, in order
     */
    record Txt(List<String> strings) implements DnsRdata {
        /**
         * Copies the list.
         *
         * @param strings the strings, in order
         */
        public Txt {
            strings = List.copyOf(strings);
        }
    }

    /**
     * SRV (RFC 2782).
     *
     * @param priority lower is tried first
     * @param weight relative weight among equal priorities
     * @param port the service's port
     * @param target the host, absolute; never compressed on the wire
     */
    record Srv(int priority, int weight, int port, String target) implements DnsRdata {
        /**
         * Checks the name.
         *
         * @param priority lower is tried first
         * @param weight relative weight among equal priorities
         * @param port the service's port
         * @param target the host, absolute; never compressed on the wire
         */
        public Srv {
            DnsNames.checkName(target);
        }
    }

    /**
     * SOA (RFC 1035 §3.3.13); its {@code minimum} bounds negative caching (RFC 2308 §5).
     *
     * @param mname the primary name server
     * @param rname the responsible mailbox
     * @param serial the zone's serial
     * @param refresh seconds
     * @param retry seconds
     * @param expire seconds
     * @param minimum seconds; the negative-answer TTL
     */
    record Soa(String mname, String rname, long serial, long refresh, long retry, long expire, long minimum)
            implements DnsRdata {
        /**
         * Checks the names.
         *
         * @param mname the primary name server
         * @param rname the responsible mailbox
         * @param serial the zone's serial
         * @param refresh seconds
         * @param retry seconds
         * @param expire seconds
         * @param minimum seconds; the negative-answer TTL
         */
        public Soa {
            DnsNames.checkName(mname);
            DnsNames.checkName(rname);
        }
    }

    /**
     * SVCB or HTTPS (RFC 9460 §2.2): priority 0 is AliasMode, others ServiceMode.
     *
     * @param priority the SvcPriority
     * @param target the TargetName, absolute; never compressed on the wire
     * @param params the SvcParams in strictly increasing key order
     */
    record Svcb(int priority, String target, List<SvcParam> params) implements DnsRdata {
        /**
         * Checks the name and the key order.
         *
         * @param priority the SvcPriority
         * @param target the TargetName, absolute; never compressed on the wire
         * @param params the SvcParams in strictly increasing key order
         */
        public Svcb {
            DnsNames.checkName(target);
            params = List.copyOf(params);
            for (int i = 1; i < params.size(); i++) {
                if (params.get(i).key() <= params.get(i - 1).key()) {
                    throw new IllegalArgumentException("SvcParam keys must increase strictly (RFC 9460 §2.2): " + params);
                }
            }
        }
    }

    /**
     * One SvcParam: its key (1 alpn, 3 port, 4 ipv4hint, 6 ipv6hint, ...) and value octets.
     *
     * @param key the SvcParamKey
     * @param value the SvcParamValue
     */
    record SvcParam(int key, byte[] value) {
        /**
         * Copies the value.
         *
         * @param key the SvcParamKey
         * @param value the SvcParamValue
         */
        public SvcParam {
            value = value.clone();
        }

        /** {@return a copy of the value} */
        @Override
        public byte[] value() {
            return value.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof SvcParam p && p.key == key && Arrays.equals(p.value, value);
        }

        @Override
        public int hashCode() {
            return key * 31 + Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return "key" + key + "=" + HexFormat.of().formatHex(value);
        }
    }

    /**
     * Any other type: the RDATA octets as they were (names inside are not decompressed, RFC 3597 §4).
     *
     * @param bytes the RDATA
     */
    record Raw(byte[] bytes) implements DnsRdata {
        /**
         * Copies the bytes.
         *
         * @param bytes the RDATA
         */
        public Raw {
            bytes = bytes.clone();
        }

        /** {@return a copy of the RDATA} */
        @Override
        public byte[] bytes() {
            return bytes.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Raw r && Arrays.equals(r.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return "\\# " + bytes.length + " " + HexFormat.of().formatHex(bytes);
        }
    }
}
