package io.rill.handler.codec.dns;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.rill.buffer.ByteBuf;

/**
 * Decodes one whole DNS message (a UDP payload, or a TCP frame without its length) strictly:
 * anything RFC 1035 does not allow fails with a {@link DnsDecoderException} that names the rule
 * and the offset, never with another exception, and nothing past the message's bounds is read.
 *
 * <p>Compression (RFC 1035 §4.1.4): a pointer must point strictly before every offset the name has
 * read so far. That one rule refuses loops, forward pointers and pointers out of the message,
 * and bounds the work per name by the message's length. The decoder allocates only what it
 * returns; it neither retains nor releases the buffer, and leaves its reader index unchanged.
 */
public final class DnsMessageDecoder {

    private static final int HEADER = 12;

    private final ByteBuf buf;
    private final int base;
    private final int end;
    /** Offset of the next octet to read, relative to {@code base}. */
    private int pos;
    /** One label's octets; a label is at most 63. */
    private final byte[] label = new byte[DnsNames.MAX_LABEL];

    private DnsMessageDecoder(ByteBuf buf) {
        this.buf = buf;
        this.base = buf.readerIndex();
        this.end = buf.readableBytes();
    }

    /**
     * Decodes the readable bytes of {@code in} as one message.
     *
     * @param in the message; its indexes are not changed
     * @return the message
     * @throws DnsDecoderException if the bytes are not a well-formed message
     */
    public static DnsMessage decode(ByteBuf in) {
        try {
            return new DnsMessageDecoder(in).message();
        } catch (IllegalArgumentException e) {
            // A record's own checks (DnsNames, the records' constructors) refused what the wire held.
            throw new DnsDecoderException(e.getMessage());
        }
    }

    private DnsMessage message() {
        need(HEADER, "header");
        int id = u16();
        int flags = u16();
        int qd = u16();
        int an = u16();
        int ns = u16();
        int ar = u16();
        List<DnsQuestion> questions = new ArrayList<>(Math.min(qd, 4));
        for (int i = 0; i < qd; i++) {
            String name = name();
            need(4, "question type and class");
            questions.add(new DnsQuestion(name, u16(), u16()));
        }
        List<DnsRecord> answers = records(an, "answer", null);
        List<DnsRecord> authorities = records(ns, "authority", null);
        Edns[] edns = new Edns[1];
        List<DnsRecord> additionals = records(ar, "additional", edns);
        if (pos != end) {
            throw new DnsDecoderException((end - pos) + " octets after the last record, at offset " + pos);
        }
        return new DnsMessage(id, flags, questions, answers, authorities, additionals, edns[0]);
    }

    private List<DnsRecord> records(int count, String section, Edns[] edns) {
        List<DnsRecord> out = new ArrayList<>(Math.min(count, 16));
        for (int i = 0; i < count; i++) {
            int start = pos;
            String name = name();
            need(10, section + " record header");
            int type = u16();
            int dnsClass = u16();
            long ttl = buf.getUnsignedInt(base + pos);
            pos += 4;
            int rdlength = u16();
            need(rdlength, DnsRecordType.name(type) + " RDATA of " + rdlength + " octets");
            int rdataEnd = pos + rdlength;
            if (type == DnsRecordType.OPT) {
                if (edns == null) {
                    throw new DnsDecoderException("OPT record in the " + section + " section at offset " + start
                            + " (RFC 6891 §6.1.1: additional section only)");
                }
                if (edns[0] != null) {
                    throw new DnsDecoderException("a second OPT record at offset " + start + " (RFC 6891 §6.1.1)");
                }
                if (!name.equals(".")) {
                    throw new DnsDecoderException("OPT record owner " + name + " is not the root, at offset " + start);
                }
                edns[0] = edns(dnsClass, ttl, rdataEnd);
            } else {
                // RFC 2181 §8: a TTL with the top bit set counts as zero.
                long safeTtl = ttl > 0x7FFFFFFFL ? 0 : ttl;
                out.add(new DnsRecord(name, type, dnsClass, safeTtl, rdata(type, rdlength, rdataEnd)));
            }
            if (pos != rdataEnd) {
                throw new DnsDecoderException(DnsRecordType.name(type) + " RDATA at offset " + (rdataEnd - rdlength)
                        + " does not fill its RDLENGTH " + rdlength);
            }
        }
        return out;
    }

    private Edns edns(int payloadSize, long ttl, int rdataEnd) {
        List<Edns.Option> options = new ArrayList<>();
        while (pos < rdataEnd) {
            need(4, "EDNS option header");
            int code = u16();
            int length = u16();
            if (pos + length > rdataEnd) {
                throw new DnsDecoderException("EDNS option " + code + " of " + length + " octets overruns the OPT RDATA");
            }
            options.add(new Edns.Option(code, bytes(length)));
        }
        return new Edns(payloadSize, (int) (ttl >>> 24), (int) (ttl >>> 16) & 0xFF, (ttl & 0x8000) != 0, options);
    }

    private DnsRdata rdata(int type, int rdlength, int rdataEnd) {
        switch (type) {
            case DnsRecordType.A, DnsRecordType.AAAA -> {
                int want = type == DnsRecordType.A ? 4 : 16;
                if (rdlength != want) {
                    throw new DnsDecoderException(DnsRecordType.name(type) + " RDATA of " + rdlength + " octets, not "
                            + want + ", at offset " + pos);
                }
                try {
                    return new DnsRdata.Address(InetAddress.getByAddress(bytes(want)));
                } catch (UnknownHostException impossible) {
                    throw new AssertionError(impossible);
                }
            }
            case DnsRecordType.CNAME, DnsRecordType.NS, DnsRecordType.PTR -> {
                return new DnsRdata.Name(nameWithin(rdataEnd));
            }
            case DnsRecordType.MX -> {
                need(2, "MX preference");
                int preference = u16();
                return new DnsRdata.Mx(preference, nameWithin(rdataEnd));
            }
            case DnsRecordType.TXT -> {
                List<String> strings = new ArrayList<>();
                while (pos < rdataEnd) {
                    int length = buf.getUnsignedByte(base + pos++);
                    if (pos + length > rdataEnd) {
                        throw new DnsDecoderException("TXT string of " + length + " octets overruns its RDATA at offset " + pos);
                    }
                    strings.add(new String(bytes(length), StandardCharsets.ISO_8859_1));
                }
                if (strings.isEmpty()) {
                    throw new DnsDecoderException("TXT record without a string (RFC 1035 §3.3.14) at offset " + pos);
                }
                return new DnsRdata.Txt(strings);
            }
            case DnsRecordType.SRV -> {
                need(6, "SRV priority, weight and port");
                int priority = u16();
                int weight = u16();
                int port = u16();
                return new DnsRdata.Srv(priority, weight, port, nameWithin(rdataEnd));
            }
            case DnsRecordType.SOA -> {
                String mname = nameWithin(rdataEnd);
                String rname = nameWithin(rdataEnd);
                if (pos + 20 > rdataEnd) {
                    throw new DnsDecoderException("SOA RDATA too short for its five counters at offset " + pos);
                }
                long[] v = new long[5];
                for (int i = 0; i < 5; i++) {
                    v[i] = buf.getUnsignedInt(base + pos);
                    pos += 4;
                }
                return new DnsRdata.Soa(mname, rname, v[0], v[1], v[2], v[3], v[4]);
            }
            case DnsRecordType.SVCB, DnsRecordType.HTTPS -> {
                return svcb(rdataEnd);
            }
            default -> {
                return new DnsRdata.Raw(bytes(rdlength));
            }
        }
    }

    private DnsRdata svcb(int rdataEnd) {
        if (pos + 2 > rdataEnd) {
            throw new DnsDecoderException("SVCB RDATA too short for SvcPriority at offset " + pos);
        }
        int priority = u16();
        String target = nameWithin(rdataEnd);
        List<DnsRdata.SvcParam> params = new ArrayList<>();
        int lastKey = -1;
        while (pos < rdataEnd) {
            if (pos + 4 > rdataEnd) {
                throw new DnsDecoderException("SvcParam header overruns its RDATA at offset " + pos);
            }
            int key = u16();
            int length = u16();
            if (key <= lastKey) {
                throw new DnsDecoderException("SvcParam key " + key + " after " + lastKey
                        + " (RFC 9460 §2.2: strictly increasing) at offset " + (pos - 4));
            }
            if (pos + length > rdataEnd) {
                throw new DnsDecoderException("SvcParam " + key + " of " + length + " octets overruns its RDATA");
            }
            params.add(new DnsRdata.SvcParam(key, bytes(length)));
            lastKey = key;
        }
        return new DnsRdata.Svcb(priority, target, params);
    }

    /** A name inside RDATA: its inline octets must stay within the RDATA, though pointers may leave it. */
    private String nameWithin(int rdataEnd) {
        return nameBounded(rdataEnd);
    }

    private String name() {
        return nameBounded(end);
    }

    /**
     * Reads a name starting at {@code pos}; the octets before the first pointer must lie before
     * {@code inlineEnd}. Leaves {@code pos} after the name's in-place octets.
     */
    private String nameBounded(int inlineEnd) {
        StringBuilder out = new StringBuilder(32);
        int start = pos;
        int at = pos;
        int lowest = pos;
        int bound = inlineEnd;
        boolean jumped = false;
        int wire = 1;
        while (true) {
            if (at >= bound) {
                throw new DnsDecoderException("name starting at offset " + start + " runs past "
                        + (bound == end ? "the message" : "its RDATA") + " at offset " + at);
            }
            int len = buf.getUnsignedByte(base + at);
            int kind = len & 0xC0;
            if (kind == 0xC0) {
                if (at + 1 >= bound) {
                    throw new DnsDecoderException("compression pointer at offset " + at + " cut off");
                }
                int target = ((len & 0x3F) << 8) | buf.getUnsignedByte(base + at + 1);
                if (!jumped) {
                    pos = at + 2;
                    jumped = true;
                }
                if (target >= lowest) {
                    throw new DnsDecoderException("compression pointer at offset " + at + " to offset " + target
                            + (target >= end ? ", outside the message of " + end + " octets"
                            : ", not before offset " + lowest + " (a loop or a forward pointer)"));
                }
                at = target;
                lowest = target;
                bound = end;
                continue;
            }
            if (kind != 0) {
                throw new DnsDecoderException("label type 0x" + Integer.toHexString(kind) + " at offset " + at
                        + " (only plain labels and pointers exist, RFC 6891 §5)");
            }
            if (len == 0) {
                if (!jumped) {
                    pos = at + 1;
                }
                return out.length() == 0 ? "." : out.toString();
            }
            // The 63 limit needs no check: a length octet of 64 or more has a non-zero type above.
            wire += 1 + len;
            if (wire > DnsNames.MAX_NAME) {
                throw new DnsDecoderException("name starting at offset " + start + " longer than " + DnsNames.MAX_NAME
                        + " octets (DnsNames.MAX_NAME)");
            }
            if (at + 1 + len > bound) {
                throw new DnsDecoderException("label of " + len + " octets at offset " + at + " runs past "
                        + (bound == end ? "the message" : "its RDATA"));
            }
            buf.getBytes(base + at + 1, label, 0, len);
            DnsNames.appendLabel(out, label, len);
            at += 1 + len;
        }
    }

    private void need(int n, String what) {
        if (pos + n > end) {
            throw new DnsDecoderException("message of " + end + " octets ends inside the " + what + " at offset " + pos);
        }
    }

    private int u16() {
        int v = buf.getUnsignedShort(base + pos);
        pos += 2;
        return v;
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        buf.getBytes(base + pos, b);
        pos += n;
        return b;
    }
}
