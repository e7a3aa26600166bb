package io.rill.handler.codec.dns;

import java.util.Arrays;
import java.util.List;

/**
 * A message's OPT pseudo-record (RFC 6891 §6.1), which is not a record: its class is the sender's
 * UDP payload size and its TTL the extended RCODE, version and DO bit.
 *
 * @param udpPayloadSize the largest UDP response the sender reassembles; below 512 counts as 512
 * @param extendedRcode the upper 8 bits of the 12-bit RCODE
 * @param version the EDNS version; 0 is the only one
 * @param dnssecOk the DO bit (RFC 3225)
 * @param options the EDNS options
 */
public record Edns(int udpPayloadSize, int extendedRcode, int version, boolean dnssecOk, List<Option> options) {

    /**
     * Checks the ranges and copies the options.
     *
     * @param udpPayloadSize the largest UDP response the sender reassembles; below 512 counts as 512
     * @param extendedRcode the upper 8 bits of the 12-bit RCODE
     * @param version the EDNS version; 0 is the only one
     * @param dnssecOk the DO bit (RFC 3225)
     * @param options the EDNS options
     */
    public Edns {
        if ((udpPayloadSize & ~0xFFFF) != 0 || (extendedRcode & ~0xFF) != 0 || (version & ~0xFF) != 0) {
            throw new IllegalArgumentException("EDNS fields out of range: " + udpPayloadSize + ", " + extendedRcode
                    + ", " + version);
        }
        options = List.copyOf(options);
    }

    /**
     * EDNS0 with no options, advertising {@code udpPayloadSize}.
     *
     * @param udpPayloadSize the largest UDP answer to accept
     * @return the OPT data
     */
    public static Edns of(int udpPayloadSize) {
        return new Edns(udpPayloadSize, 0, 0, false, List.of());
    }

    /**
     * One EDNS option (RFC 6891 §6.1.2).
     *
     * @param code the OPTION-CODE
     * @param data the OPTION-DATA
     */
    public record Option(int code, byte[] data) {
        /**
         * Copies the data.
         *
         * @param code the OPTION-CODE
         * @param data the OPTION-DATA
         */
        public Option {
            data = data.clone();
        }

        /** {@return a copy of the data} */
        @Override
        public byte[] data() {
            return data.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Option p && p.code == code && Arrays.equals(p.data, data);
        }

        @Override
        public int hashCode() {
            return code * 31 + Arrays.hashCode(data);
        }
    }
}
