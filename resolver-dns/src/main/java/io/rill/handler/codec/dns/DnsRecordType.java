package io.rill.handler.codec.dns;

/**
 * The record types Rill decodes into their own {@link DnsRdata}; any other type decodes to
 * {@link DnsRdata.Raw}. Values from the IANA "Resource Record (RR) TYPEs" registry.
 */
public final class DnsRecordType {

    /** An IPv4 address (RFC 1035 §3.4.1). */
    public static final int A = 1;
    /** An authoritative name server (RFC 1035 §3.3.11). */
    public static final int NS = 2;
    /** The canonical name of an alias (RFC 1035 §3.3.1). */
    public static final int CNAME = 5;
    /** The start of a zone of authority (RFC 1035 §3.3.13). */
    public static final int SOA = 6;
    /** A domain name pointer (RFC 1035 §3.3.12). */
    public static final int PTR = 12;
    /** Mail exchange (RFC 1035 §3.3.9). */
    public static final int MX = 15;
    /** Text strings (RFC 1035 §3.3.14). */
    public static final int TXT = 16;
    /** An IPv6 address (RFC 3596). */
    public static final int AAAA = 28;
    /** Service location (RFC 2782). */
    public static final int SRV = 33;
    /** The EDNS0 pseudo-record (RFC 6891). */
    public static final int OPT = 41;
    /** Service binding (RFC 9460). */
    public static final int SVCB = 64;
    /** Service binding for HTTPS (RFC 9460 §9). */
    public static final int HTTPS = 65;
    /** The class of every record Rill asks for: Internet. */
    public static final int CLASS_IN = 1;

    private DnsRecordType() {
    }

    /**
     * The mnemonic of {@code type}, or {@code TYPEnnn} (RFC 3597 §5) for one not listed here.
     *
     * @param type a record type
     * @return its name
     */
    public static String name(int type) {
        return switch (type) {
            case A -> "A";
            case NS -> "NS";
            case CNAME -> "CNAME";
            case SOA -> "SOA";
            case PTR -> "PTR";
            case MX -> "MX";
            case TXT -> "TXT";
            case AAAA -> "AAAA";
            case SRV -> "SRV";
            case OPT -> "OPT";
            case SVCB -> "SVCB";
            case HTTPS -> "HTTPS";
            default -> "TYPE" + type;
        };
    }
}
