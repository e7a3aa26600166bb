package io.rill.handler.codec.dns;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import io.rill.buffer.ByteBuf;

/**
 * Encodes a {@link DnsMessage} into wire format, compressing names (RFC 1035 §4.1.4): owner names,
 * question names and the names inside CNAME, NS, PTR, MX and SOA data point back at an earlier
 * copy of their longest known suffix. SRV and SVCB/HTTPS targets are written whole, as RFC 2782
 * and RFC 9460 §2.2 require; other types' data goes out as it came (RFC 3597 §4).
 */
public final class DnsMessageEncoder {

    /** A pointer holds 14 bits of offset. */
    private static final int MAX_POINTER = 0x3FFF;
    /**
     * Names kept for later pointers beyond the first: a lookup walks them all, so a message of
     * thousands of names stays linear; what is not kept is written whole.
     */
    private static final int MAX_RECORDED = 128;

    private final ByteBuf out;
    private final int base;
    /**
     * The names written so far that later names may point into. A name without escapes spells its
     * wire form shifted by one: its suffix at char {@code j} starts at wire offset
     * {@code offset + j}, as long as {@code j} lies in the part written as labels (before
     * {@code literalEnd}); past it the name was a pointer, whose target is itself in this table.
     * The first name lives in fields so that a one-name query allocates no table; names with
     * escapes are not recorded (they stay correct, only less compressed).
     */
    private String firstName;
    private int firstOffset;
    private int firstLiteralEnd;
    private String[] names;
    private int[] offsets;
    private int[] literalEnds;
    private int recorded;

    private DnsMessageEncoder(ByteBuf out) {
        this.out = out;
        this.base = out.writerIndex();
    }

    /**
     * Writes {@code message} at {@code out}'s writer index.
     *
     * @param message the message
     * @param out where to write; grows as needed
     */
    public static void encode(DnsMessage message, ByteBuf out) {
        new DnsMessageEncoder(out).message(message);
    }

    private void message(DnsMessage m) {
        out.writeShort(m.id());
        out.writeShort(m.flags());
        out.writeShort(m.questions().size());
        out.writeShort(m.answers().size());
        out.writeShort(m.authorities().size());
        out.writeShort(m.additionals().size() + (m.edns() != null ? 1 : 0));
        for (DnsQuestion q : m.questions()) {
            name(q.name(), true);
            out.writeShort(q.type());
            out.writeShort(q.dnsClass());
        }
        records(m.answers());
        records(m.authorities());
        records(m.additionals());
        if (m.edns() != null) {
            edns(m.edns());
        }
    }

    private void records(List<DnsRecord> records) {
        for (DnsRecord r : records) {
            name(r.name(), true);
            out.writeShort(r.type());
            out.writeShort(r.dnsClass());
            out.writeInt((int) r.ttl());
            int lengthAt = out.writerIndex();
            out.writeShort(0);
            rdata(r.data());
            int length = out.writerIndex() - lengthAt - 2;
            if (length > 0xFFFF) {
                throw new IllegalArgumentException("RDATA of " + length + " octets over 65535: " + r);
            }
            out.setShort(lengthAt, length);
        }
    }

    private void rdata(DnsRdata data) {
        // Java 17 has no pattern switch; the sealed interface keeps this list complete.
        if (data instanceof DnsRdata.Address a) {
            out.writeBytes(a.address().getAddress());
        } else if (data instanceof DnsRdata.Name n) {
            name(n.target(), true);
        } else if (data instanceof DnsRdata.Mx mx) {
            out.writeShort(mx.preference());
            name(mx.exchange(), true);
        } else if (data instanceof DnsRdata.Txt txt) {
            for (String s : txt.strings()) {
                byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
                if (b.length > 255) {
                    throw new IllegalArgumentException("TXT string of " + b.length + " octets over 255");
                }
                out.writeByte(b.length);
                out.writeBytes(b);
            }
        } else if (data instanceof DnsRdata.Srv srv) {
            out.writeShort(srv.priority());
            out.writeShort(srv.weight());
            out.writeShort(srv.port());
            name(srv.target(), false);
        } else if (data instanceof DnsRdata.Soa soa) {
            name(soa.mname(), true);
            name(soa.rname(), true);
            out.writeInt((int) soa.serial());
            out.writeInt((int) soa.refresh());
            out.writeInt((int) soa.retry());
            out.writeInt((int) soa.expire());
            out.writeInt((int) soa.minimum());
        } else if (data instanceof DnsRdata.Svcb svcb) {
            out.writeShort(svcb.priority());
            name(svcb.target(), false);
            for (DnsRdata.SvcParam p : svcb.params()) {
                byte[] v = p.value();
                out.writeShort(p.key());
                out.writeShort(v.length);
                out.writeBytes(v);
            }
        } else {
            out.writeBytes(((DnsRdata.Raw) data).bytes());
        }
    }

    private void edns(Edns e) {
        out.writeByte(0);
        out.writeShort(DnsRecordType.OPT);
        out.writeShort(e.udpPayloadSize());
        out.writeInt(e.extendedRcode() << 24 | e.version() << 16 | (e.dnssecOk() ? 0x8000 : 0));
        int lengthAt = out.writerIndex();
        out.writeShort(0);
        for (Edns.Option o : e.options()) {
            byte[] d = o.data();
            out.writeShort(o.code());
            out.writeShort(d.length);
            out.writeBytes(d);
        }
        out.setShort(lengthAt, out.writerIndex() - lengthAt - 2);
    }

    /**
     * Writes {@code name}: its labels until a suffix already written can be pointed to. Names are
     * checked when their record or question is made, so only the wire form is produced here.
     */
    private void name(String name, boolean compress) {
        if (name.length() == 1) {
            out.writeByte(0);
            return;
        }
        if (name.indexOf('\\') >= 0) {
            escapedName(name);
            return;
        }
        int start = out.writerIndex();
        int pointerAt = -1;
        int pointer = -1;
        if (compress) {
            for (int at = 0; at < name.length() - 1; at = name.indexOf('.', at) + 1) {
                pointer = earlier(name, at);
                if (pointer >= 0) {
                    pointerAt = at;
                    break;
                }
            }
        }
        // "www.example.com." goes out as its bytes behind one spare byte, then each label's length
        // replaces the dot before it: [3]www[7]example[3]com[0].
        out.writeByte(0);
        out.writeCharSequence(name, StandardCharsets.ISO_8859_1);
        int labelAt = start;
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) == '.') {
                int wireDot = start + 1 + i;
                out.setByte(labelAt, wireDot - labelAt - 1);
                labelAt = wireDot;
            }
        }
        if (pointer >= 0) {
            out.writerIndex(start + pointerAt);
            out.writeShort(0xC000 | pointer);
        } else {
            out.setByte(labelAt, 0);
        }
        int literalEnd = pointer >= 0 ? pointerAt : name.length();
        if (literalEnd > 0 && start - base <= MAX_POINTER) {
            record(name, start - base, literalEnd);
        }
    }

    /** The wire offset of an earlier copy of {@code name}'s suffix at {@code at}, or -1. */
    private int earlier(String name, int at) {
        if (firstName == null) {
            return -1;
        }
        int found = pointerInto(firstName, firstOffset, firstLiteralEnd, name, at);
        for (int i = 0; i < recorded && found < 0; i++) {
            found = pointerInto(names[i], offsets[i], literalEnds[i], name, at);
        }
        return found;
    }

    /**
     * Where the written name {@code into} holds {@code name}'s suffix at {@code at} as labels, or -1.
     * Keys keep their case: a pointer to a suffix spelled otherwise would change the name's case,
     * which RFC 4343 §4 asks us to keep.
     */
    private static int pointerInto(String into, int offset, int literalEnd, String name, int at) {
        int length = name.length() - at;
        int j = into.length() - length;
        if (j < 0 || j >= literalEnd || (j > 0 && into.charAt(j - 1) != '.')) {
            return -1;
        }
        if (offset + j > MAX_POINTER || !into.regionMatches(j, name, at, length)) {
            return -1;
        }
        return offset + j;
    }

    private void record(String name, int offset, int literalEnd) {
        if (firstName == null) {
            firstName = name;
            firstOffset = offset;
            firstLiteralEnd = literalEnd;
            return;
        }
        if (names == null) {
            names = new String[8];
            offsets = new int[8];
            literalEnds = new int[8];
        } else if (recorded == names.length) {
            if (recorded == MAX_RECORDED) {
                return;
            }
            names = Arrays.copyOf(names, recorded * 2);
            offsets = Arrays.copyOf(offsets, recorded * 2);
            literalEnds = Arrays.copyOf(literalEnds, recorded * 2);
        }
        names[recorded] = name;
        offsets[recorded] = offset;
        literalEnds[recorded] = literalEnd;
        recorded++;
    }

    /** A name with an escaped '.' or '\\' in a label: written label by label, uncompressed. */
    private void escapedName(String name) {
        for (String label : DnsNames.labels(name)) {
            out.writeByte(label.length());
            out.writeCharSequence(label, StandardCharsets.ISO_8859_1);
        }
        out.writeByte(0);
    }
}
