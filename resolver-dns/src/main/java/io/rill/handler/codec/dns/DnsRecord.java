package io.rill.handler.codec.dns;

/**
 * One resource record (RFC 1035 §4.1.3) of the answer, authority or additional section.
 *
 * @param name the owner name, absolute, with its trailing dot
 * @param type the record type; {@link DnsRecordType}
 * @param dnsClass the class
 * @param ttl seconds the record may be cached, 0 to 2^31 - 1 (RFC 2181 §8: a larger value counts as 0)
 * @param data the record data, decoded by type
 */
public record DnsRecord(String name, int type, int dnsClass, long ttl, DnsRdata data) {

    /**
     * Checks the fields' ranges.
     *
     * @param name the owner name, absolute, with its trailing dot
     * @param type the record type; {@link DnsRecordType}
     * @param dnsClass the class
     * @param ttl seconds the record may be cached, 0 to 2^31 - 1 (RFC 2181 §8: a larger value counts as 0)
     * @param data the record data, decoded by type
     */
    public DnsRecord {
        DnsNames.checkName(name);
        if ((type & ~0xFFFF) != 0 || (dnsClass & ~0xFFFF) != 0) {
            throw new IllegalArgumentException("type and class are 16-bit: " + type + ", " + dnsClass);
        }
        if (ttl < 0 || ttl > 0x7FFFFFFFL) {
            throw new IllegalArgumentException("ttl out of 0 to 2^31 - 1: " + ttl);
        }
        if (data == null) {
            throw new NullPointerException("data");
        }
    }

    @Override
    public String toString() {
        return name + " " + ttl + " " + DnsRecordType.name(type) + " " + data;
    }
}
