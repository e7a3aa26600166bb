package io.rill.handler.codec.dns;

import java.util.List;

/**
 * A DNS message (RFC 1035 §4.1): the header's ID and flags, the four sections, and the OPT
 * pseudo-record, which the codec keeps apart from the additional section.
 *
 * <pre>
 *  flags:  15 | 14..11 | 10 |  9 |  8 |  7 | 6 | 5  | 4  | 3..0
 *          QR | OPCODE | AA | TC | RD | RA | Z | AD | CD | RCODE (low 4 bits)
 * </pre>
 *
 * @param id the query ID the answer must echo
 * @param flags the header's second 16 bits, as drawn above
 * @param questions the question section
 * @param answers the answer section
 * @param authorities the authority section
 * @param additionals the additional section, without the OPT record
 * @param edns the OPT record's data, or null when the message has none
 */
public record DnsMessage(int id, int flags, List<DnsQuestion> questions, List<DnsRecord> answers,
        List<DnsRecord> authorities, List<DnsRecord> additionals, Edns edns) {

    /** QR: the message is a response. */
    public static final int FLAG_QR = 1 << 15;
    /** AA: an authoritative answer. */
    public static final int FLAG_AA = 1 << 10;
    /** TC: the answer was truncated to fit the transport; ask again over TCP. */
    public static final int FLAG_TC = 1 << 9;
    /** RD: recursion desired. */
    public static final int FLAG_RD = 1 << 8;
    /** RA: recursion available. */
    public static final int FLAG_RA = 1 << 7;
    /** RCODE 0: no error. */
    public static final int NOERROR = 0;
    /** RCODE 1: the server could not parse the query. */
    public static final int FORMERR = 1;
    /** RCODE 2: the server failed. */
    public static final int SERVFAIL = 2;
    /** RCODE 3: the name does not exist. */
    public static final int NXDOMAIN = 3;
    /** RCODE 4: the kind of query is not implemented. */
    public static final int NOTIMP = 4;
    /** RCODE 5: the server refuses to answer. */
    public static final int REFUSED = 5;

    /**
     * Checks the ranges and copies the sections.
     *
     * @param id the query ID the answer must echo
     * @param flags the header's second 16 bits, as drawn above
     * @param questions the question section
     * @param answers the answer section
     * @param authorities the authority section
     * @param additionals the additional section, without the OPT record
     * @param edns the OPT record's data, or null when the message has none
     */
    public DnsMessage {
        if ((id & ~0xFFFF) != 0 || (flags & ~0xFFFF) != 0) {
            throw new IllegalArgumentException("id and flags are 16-bit: " + id + ", " + flags);
        }
        questions = List.copyOf(questions);
        answers = List.copyOf(answers);
        authorities = List.copyOf(authorities);
        additionals = List.copyOf(additionals);
    }

    /**
     * A recursive query for {@code question}, with EDNS0 advertising {@code udpPayloadSize}
     * (0: no OPT record).
     *
     * @param id the query ID
     * @param question what to ask
     * @param udpPayloadSize the EDNS0 UDP payload size, or 0 for none
     * @return the query
     */
    public static DnsMessage query(int id, DnsQuestion question, int udpPayloadSize) {
        return new DnsMessage(id, FLAG_RD, List.of(question), List.of(), List.of(), List.of(),
                udpPayloadSize > 0 ? Edns.of(udpPayloadSize) : null);
    }

    /** {@return whether QR is set} */
    public boolean isResponse() {
        return (flags & FLAG_QR) != 0;
    }

    /** {@return whether TC is set: the answer did not fit and the full one is to be fetched over TCP} */
    public boolean isTruncated() {
        return (flags & FLAG_TC) != 0;
    }

    /** {@return the OPCODE, 0 for a standard query} */
    public int opcode() {
        return (flags >>> 11) & 0xF;
    }

    /** {@return the full RCODE: the header's 4 bits, extended by the OPT record's 8 (RFC 6891 §6.1.3)} */
    public int rcode() {
        return (edns == null ? 0 : edns.extendedRcode() << 4) | (flags & 0xF);
    }

    /**
     * The RCODE's mnemonic.
     *
     * @param rcode an RCODE
     * @return its name, or {@code RCODEn}
     */
    public static String rcodeName(int rcode) {
        return switch (rcode) {
            case NOERROR -> "NOERROR";
            case FORMERR -> "FORMERR";
            case SERVFAIL -> "SERVFAIL";
            case NXDOMAIN -> "NXDOMAIN";
            case NOTIMP -> "NOTIMP";
            case REFUSED -> "REFUSED";
            default -> "RCODE" + rcode;
        };
    }
}
