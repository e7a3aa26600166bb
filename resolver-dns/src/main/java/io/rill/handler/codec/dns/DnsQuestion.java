package io.rill.handler.codec.dns;

/**
 * One entry of a message's question section (RFC 1035 §4.1.2).
 *
 * @param name the name asked about, absolute, with its trailing dot ({@code "example.com."})
 * @param type the record type asked for, e.g. {@link DnsRecordType#A}
 * @param dnsClass the class, {@link DnsRecordType#CLASS_IN} in practice
 */
public record DnsQuestion(String name, int type, int dnsClass) {

    /**
     * Checks the fields' ranges.
     *
     * @param name the name asked about, absolute, with its trailing dot ({@code "example.com."})
     * @param type the record type asked for, e.g. {@link DnsRecordType#A}
     * @param dnsClass the class, {@link DnsRecordType#CLASS_IN} in practice
     */
    public DnsQuestion {
        DnsNames.checkName(name);
        if ((type & ~0xFFFF) != 0 || (dnsClass & ~0xFFFF) != 0) {
            throw new IllegalArgumentException("type and class are 16-bit: " + type + ", " + dnsClass);
        }
    }

    /**
     * A question of class IN.
     *
     * @param name the name, absolute (a trailing dot is added when missing)
     * @param type the record type
     * @return the question
     */
    public static DnsQuestion in(String name, int type) {
        return new DnsQuestion(DnsNames.absolute(name), type, DnsRecordType.CLASS_IN);
    }

    /**
     * Whether {@code other} asks the same: names compared without case (RFC 4343), type and class equal.
     *
     * @param other another question
     * @return true if they match
     */
    public boolean matches(DnsQuestion other) {
        return type == other.type && dnsClass == other.dnsClass && DnsNames.equalsIgnoreCase(name, other.name);
    }

    @Override
    public String toString() {
        return name + " " + DnsRecordType.name(type);
    }
}
