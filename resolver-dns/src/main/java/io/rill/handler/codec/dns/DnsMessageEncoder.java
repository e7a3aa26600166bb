package io.rill.handler.codec.dns;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

    private final ByteBuf out;
    private final int base;
    /**
     * Suffix ("b.c.") to the offset where it was written. Keys keep their case: a pointer to a
     * suffix spelled otherwise would change the name's case, which RFC 4343 §4 asks us to keep.
     */
    private final Map<String, Integer> written = new HashMap<>();

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

    /** Writes {@code name}'s labels until a suffix already written can be pointed to. */
    private void name(String name, boolean compress) {
        List<String> labels = DnsNames.labels(name);
        int suffixAt = 0;
        for (int i = 0; i < labels.size(); i++) {
            String suffix = name.substring(suffixAt);
            Integer earlier = compress ? written.get(suffix) : null;
            if (earlier != null) {
                out.writeShort(0xC000 | earlier);
                return;
            }
            int offset = out.writerIndex() - base;
            if (offset <= MAX_POINTER) {
                written.putIfAbsent(suffix, offset);
            }
            byte[] b = labels.get(i).getBytes(StandardCharsets.ISO_8859_1);
            out.writeByte(b.length);
            out.writeBytes(b);
            suffixAt = nextLabel(name, suffixAt);
        }
        out.writeByte(0);
    }

    /** The index just after the unescaped dot that ends the label starting at {@code from}. */
    private static int nextLabel(String name, int from) {
        for (int i = from; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '.') {
                return i + 1;
            }
        }
        return name.length();
    }
}
