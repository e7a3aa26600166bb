package io.rill.handler.codec.dns;

import static io.rill.handler.codec.dns.DnsWire.decode;
import static io.rill.handler.codec.dns.DnsWire.encode;
import static io.rill.handler.codec.dns.DnsWire.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class DnsMessageCodecTest {

    static DnsMessage everyType() throws Exception {
        String owner = "www.Example.com.";
        List<DnsRecord> answers = List.of(
                new DnsRecord(owner, DnsRecordType.CNAME, 1, 300, new DnsRdata.Name("web.example.com.")),
                new DnsRecord("web.example.com.", DnsRecordType.A, 1, 60, new DnsRdata.Address(InetAddress.getByName("192.0.2.1"))),
                new DnsRecord("web.example.com.", DnsRecordType.AAAA, 1, 60, new DnsRdata.Address(InetAddress.getByName("2001:db8::1"))),
                new DnsRecord("example.com.", DnsRecordType.MX, 1, 60, new DnsRdata.Mx(10, "mail.example.com.")),
                new DnsRecord("example.com.", DnsRecordType.TXT, 1, 60, new DnsRdata.Txt(List.of("v=spf1 -all", "a.b\\c", ""))),
                new DnsRecord("_sip._tcp.example.com.", DnsRecordType.SRV, 1, 60, new DnsRdata.Srv(1, 2, 5060, "sip.example.com.")),
                new DnsRecord("1.2.0.192.in-addr.arpa.", DnsRecordType.PTR, 1, 60, new DnsRdata.Name("web.example.com.")),
                new DnsRecord("example.com.", DnsRecordType.HTTPS, 1, 60, new DnsRdata.Svcb(1, ".", List.of(
                        new DnsRdata.SvcParam(1, hex("026832026833")),
                        new DnsRdata.SvcParam(4, hex("c0000201"))))),
                new DnsRecord("_dns.example.com.", DnsRecordType.SVCB, 1, 60, new DnsRdata.Svcb(0, "dns.example.net.", List.of())),
                new DnsRecord("example.com.", 99, 1, 60, new DnsRdata.Raw(hex("0102030405"))),
                new DnsRecord("odd\\.label.example.com.", DnsRecordType.A, 1, 0, new DnsRdata.Address(InetAddress.getByName("192.0.2.2"))));
        List<DnsRecord> authorities = List.of(
                new DnsRecord("example.com.", DnsRecordType.NS, 1, 3600, new DnsRdata.Name("ns1.example.com.")),
                new DnsRecord("example.com.", DnsRecordType.SOA, 1, 3600,
                        new DnsRdata.Soa("ns1.example.com.", "hostmaster.example.com.", 2026120201L, 7200, 900, 1209600, 300)));
        List<DnsRecord> additionals = List.of(
                new DnsRecord("ns1.example.com.", DnsRecordType.A, 1, 3600, new DnsRdata.Address(InetAddress.getByName("192.0.2.53"))));
        Edns edns = new Edns(1232, 0, 0, true, List.of(new Edns.Option(10, hex("0011223344556677"))));
        return new DnsMessage(0xBEEF, DnsMessage.FLAG_QR | DnsMessage.FLAG_RD | DnsMessage.FLAG_RA,
                List.of(DnsQuestion.in(owner, DnsRecordType.A)), answers, authorities, additionals, edns);
    }

    @Test
    void everyRecordTypeRoundTrips() throws Exception {
        DnsMessage m = everyType();
        assertEquals(m, decode(encode(m)));
    }

    @Test
    void namesAreCompressedExceptWhereTheRfcsForbidIt() throws Exception {
        DnsMessage m = everyType();
        byte[] wire = encode(m);
        int pointers = 0;
        for (int i = 12; i + 1 < wire.length; i++) {
            if ((wire[i] & 0xC0) == 0xC0) {
                pointers++;
            }
        }
        assertTrue(pointers >= 10, "expected pointers, found " + pointers);
        // RFC 2782: SRV's target is written whole.
        String text = new String(wire, StandardCharsets.ISO_8859_1);
        assertTrue(text.contains("\u0003sip\u0007example\u0003com\u0000"), "SRV target uncompressed");
        assertTrue(text.contains("\u0003dns\u0007example\u0003net\u0000"), "SVCB target uncompressed");
    }

    @Test
    void eachNamePointsAtTheLongestSuffixWrittenBeforeInTheSameCase() throws Exception {
        DnsMessage m = new DnsMessage(1, DnsMessage.FLAG_QR, List.of(DnsQuestion.in("www.example.com.", DnsRecordType.A)),
                List.of(new DnsRecord("www.example.com.", DnsRecordType.CNAME, 1, 0, new DnsRdata.Name("edge.example.com.")),
                        new DnsRecord("edge.example.com.", DnsRecordType.CNAME, 1, 0, new DnsRdata.Name("a.EXAMPLE.com."))),
                List.of(), List.of(), null);
        byte[] wire = encode(m);
        String expected = "0001 8000 0001 0002 0000 0000"
                + " 03777777 076578616d706c65 03636f6d 00 0001 0001" // www.example.com at 12
                + " c00c 0005 0001 00000000 0007 04656467 65 c010"   // owner -> 12; edge + -> example.com at 16
                + " c02d 0005 0001 00000000 000c 0161 074558414d504c45 c018"; // -> edge at 45; a.EXAMPLE + -> com at 24
        assertEquals(expected.replace(" ", ""), java.util.HexFormat.of().formatHex(wire));
        assertEquals(m, decode(wire));
    }

    @Test
    void aHandWrittenCompressedAnswerDecodes() throws Exception {
        // ID 1, QR RD RA, 1 question, 1 answer: example.com A -> pointer to offset 12, 192.0.2.7, TTL 60.
        byte[] wire = hex("0001 8180 0001 0001 0000 0000"
                + "07 6578616d706c65 03 636f6d 00 0001 0001"
                + "c00c 0001 0001 0000003c 0004 c0000207");
        DnsMessage m = decode(wire);
        assertEquals(1, m.id());
        assertTrue(m.isResponse());
        assertEquals(DnsMessage.NOERROR, m.rcode());
        assertEquals(new DnsRecord("example.com.", 1, 1, 60, new DnsRdata.Address(InetAddress.getByName("192.0.2.7"))),
                m.answers().get(0));
    }

    @Test
    void theTruncationFlagIsReported() {
        DnsMessage m = decode(hex("0001 8380 0000 0000 0000 0000"));
        assertTrue(m.isTruncated());
    }

    @Test
    void everyPrefixOfAMessageFailsWithDnsDecoderException() throws Exception {
        byte[] wire = encode(everyType());
        for (int n = 0; n < wire.length; n++) {
            byte[] cut = Arrays.copyOf(wire, n);
            assertThrows(DnsDecoderException.class, () -> decode(cut), "prefix of " + n + " octets");
        }
    }

    @Test
    void dns_01_aPointerLoopIsRejected() {
        // The question's name is a pointer to itself.
        DnsDecoderException self = assertThrows(DnsDecoderException.class,
                () -> decode(hex("0001 0100 0001 0000 0000 0000 c00c 0001 0001")));
        assertTrue(self.getMessage().contains("loop"), self.getMessage());
        // A label, then a pointer back to that label: a two-step loop.
        DnsDecoderException two = assertThrows(DnsDecoderException.class,
                () -> decode(hex("0001 0100 0001 0000 0000 0000 01 61 c00c 0001 0001")));
        assertTrue(two.getMessage().contains("loop"), two.getMessage());
        // Two names that point at each other: the answer's owner points into itself through the question.
        DnsDecoderException mutual = assertThrows(DnsDecoderException.class,
                () -> decode(hex("0001 8100 0001 0001 0000 0000 01 61 c01b 0001 0001 c00c 0001 0001 00000000 0000")));
        assertTrue(mutual.getMessage().contains("pointer"), mutual.getMessage());
    }

    @Test
    void dns_01_forwardAndOutOfBoundsPointersAreRejected() {
        DnsDecoderException forward = assertThrows(DnsDecoderException.class,
                () -> decode(hex("0001 0100 0001 0000 0000 0000 c012 0001 0001 01 61 00")));
        assertTrue(forward.getMessage().contains("forward"), forward.getMessage());
        DnsDecoderException outside = assertThrows(DnsDecoderException.class,
                () -> decode(hex("0001 8100 0001 0001 0000 0000 01 61 00 0001 0001 ffff 0001 0001 00000000 0000")));
        assertTrue(outside.getMessage().contains("outside the message"), outside.getMessage());
    }

    @Test
    void dns_05_oversizedLabelsAndNamesAreRejected() {
        // A length octet of 64 is not a plain label (the two top bits are 01).
        DnsDecoderException label = assertThrows(DnsDecoderException.class,
                () -> decode(hex("0001 0100 0001 0000 0000 0000 40" + "61".repeat(64) + "00 0001 0001")));
        assertTrue(label.getMessage().contains("label type"), label.getMessage());
        // Five labels of 63 octets: 320 octets on the wire, over 255.
        String name = ("3f" + "61".repeat(63)).repeat(5) + "00";
        DnsDecoderException longName = assertThrows(DnsDecoderException.class,
                () -> decode(hex("0001 0100 0001 0000 0000 0000 " + name + " 0001 0001")));
        assertTrue(longName.getMessage().contains("longer than 255"), longName.getMessage());
        // And the encoder will not write either.
        assertThrows(IllegalArgumentException.class, () -> DnsQuestion.in("a".repeat(64) + ".com", 1));
        assertThrows(IllegalArgumentException.class, () -> DnsQuestion.in(("a".repeat(63) + ".").repeat(4) + "com", 1));
    }

    @Test
    void recordsMustFillTheirRdlength() {
        // An A record with RDLENGTH 5.
        DnsDecoderException e = assertThrows(DnsDecoderException.class,
                () -> decode(hex("0001 8100 0000 0001 0000 0000 00 0001 0001 00000000 0005 c000020700")));
        assertTrue(e.getMessage().contains("A RDATA of 5 octets"), e.getMessage());
        // A CNAME whose name runs past its RDLENGTH of 2 into the next octets.
        DnsDecoderException cname = assertThrows(DnsDecoderException.class,
                () -> decode(hex("0001 8100 0000 0001 0000 0000 00 0005 0001 00000000 0002 01 61 00")));
        assertTrue(cname.getMessage().contains("RDATA"), cname.getMessage());
    }

    @Test
    void svcParamKeysMustIncrease() {
        DnsDecoderException e = assertThrows(DnsDecoderException.class,
                () -> decode(hex("0001 8100 0000 0001 0000 0000 00 0041 0001 00000000 000b 0001 00 0003 0000 0001 0000")));
        assertTrue(e.getMessage().contains("strictly increasing"), e.getMessage());
    }

    @Test
    void aSecondOptRecordAndTrailingBytesAreRejected() {
        String opt = "00 0029 04d0 00000000 0000";
        assertThrows(DnsDecoderException.class, () -> decode(hex("0001 8100 0000 0000 0000 0002 " + opt + opt)));
        assertEquals(1232, decode(hex("0001 8100 0000 0000 0000 0001 " + opt)).edns().udpPayloadSize());
        assertThrows(DnsDecoderException.class, () -> decode(hex("0001 8100 0000 0000 0000 0000 00")));
    }

    @Test
    void aTtlWithTheTopBitSetCountsAsZero() {
        DnsMessage m = decode(hex("0001 8100 0000 0001 0000 0000 00 0001 0001 80000000 0004 c0000207"));
        assertEquals(0, m.answers().get(0).ttl());
    }
}
