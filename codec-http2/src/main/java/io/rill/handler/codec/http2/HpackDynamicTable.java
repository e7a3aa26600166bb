package io.rill.handler.codec.http2;

import io.rill.util.AsciiString;

/**
 * The HPACK dynamic table (RFC 7541 §2.3.2, §4): a FIFO of fields, newest first, whose size is the
 * sum over its entries of name length + value length + 32 octets, kept at or under a capacity by
 * evicting the oldest entries.
 *
 * <p>Entries live in a ring of power-of-two arrays that grows when full; relative index 1 is the
 * newest entry, {@link #length()} the oldest:
 * <pre>
 *   slot:   ... [oldest] ... [newest = head] ...      relative index i lives at (head - i + 1) &amp; mask
 * </pre>
 * The encoder's table also keeps each entry's name and value hashes and chains the entries by
 * name hash, so that looking a field up visits only the entries whose name hashes alike:
 * <pre>
 *   bucketHeads[nameHash &amp; mask] = newest slot + 1 (0: empty) --nextInBucket--&gt; older slot + 1 ... 0
 * </pre>
 * The oldest entry is always the last of its chain, so eviction unlinks a chain's tail.
 */
final class HpackDynamicTable {

    /** RFC 7541 §4.1: the per-entry overhead counted in addition to name and value lengths. */
    static final int ENTRY_OVERHEAD = 32;

    private final boolean keepHashes;
    private AsciiString[] names = new AsciiString[16];
    private AsciiString[] values = new AsciiString[16];
    /** The decoder's note that an entry passed the per-field checks, so later references skip them. */
    private boolean[] checked = new boolean[16];
    /** Hashes ({@link HpackStrings#hash}) of names and values; empty unless {@link #keepHashes}. */
    private int[] nameHashes;
    private int[] valueHashes;
    /** Per name-hash bucket, the newest slot + 1 with that bucket, 0 if none; sized like the ring. */
    private int[] bucketHeads;
    /** Per slot, the next older slot + 1 of the same bucket, 0 at the end of the chain. */
    private int[] nextInBucket;
    /** Slot of the newest entry; meaningless when {@link #length} is 0. */
    private int head = -1;
    /** Entries in the table: slots {@code head, head - 1, ..., head - length + 1} (mod ring size). */
    private int length;
    /** Sum of the entries' sizes; never above {@link #capacity}. */
    private long size;
    /** The largest {@link #size} allowed, as last set by a table size update or SETTINGS. */
    private long capacity;

    HpackDynamicTable(long capacity, boolean keepHashes) {
        this.capacity = capacity;
        this.keepHashes = keepHashes;
        if (keepHashes) {
            nameHashes = new int[16];
            valueHashes = new int[16];
            bucketHeads = new int[16];
            nextInBucket = new int[16];
        }
    }

    /** The size an entry with these lengths counts for. */
    static long entrySize(CharSequence name, CharSequence value) {
        return (long) name.length() + value.length() + ENTRY_OVERHEAD;
    }

    int length() {
        return length;
    }

    long size() {
        return size;
    }

    long capacity() {
        return capacity;
    }

    /** The name of the entry at relative index {@code i}, 1 (newest) to {@link #length()}. */
    AsciiString name(int i) {
        return names[slot(i)];
    }

    /** The value of the entry at relative index {@code i}, 1 (newest) to {@link #length()}. */
    AsciiString value(int i) {
        return values[slot(i)];
    }

    /** Whether the entry at relative index {@code i} was marked by {@link #markChecked}. */
    boolean isChecked(int i) {
        return checked[slot(i)];
    }

    /** Notes that the entry at relative index {@code i} passed the decoder's per-field checks. */
    void markChecked(int i) {
        checked[slot(i)] = true;
    }

    /**
     * Looks a field up, newest first.
     *
     * @return {@code i} if entry i has this name and value; {@code -i} if entry i (the newest such)
     *     has only the name; 0 if no entry has the name
     */
    int find(CharSequence name, int nameHash, CharSequence value, int valueHash) {
        int nameOnly = 0;
        int mask = names.length - 1;
        for (int link = bucketHeads[nameHash & mask]; link != 0; link = nextInBucket[link - 1]) {
            int s = link - 1;
            // hashes first, and a name's octets only once it matters: a chain holds every :path
            if (nameHashes[s] == nameHash) {
                int i = (head - s & mask) + 1;
                if (valueHashes[s] == valueHash && HpackStrings.sameOctets(values[s], value)
                        && HpackStrings.sameOctets(names[s], name)) {
                    return i;
                }
                if (nameOnly == 0 && HpackStrings.sameOctets(names[s], name)) {
                    nameOnly = -i;
                }
            }
        }
        return nameOnly;
    }

    /**
     * Inserts a field as the newest entry, first evicting what must go to make room. A field larger
     * than the capacity empties the table and is not inserted (§4.4): that is not an error.
     */
    void add(AsciiString name, AsciiString value, int nameHash, int valueHash) {
        long entrySize = entrySize(name, value);
        if (entrySize > capacity) {
            evictTo(0);
            return;
        }
        evictTo(capacity - entrySize);
        if (length == names.length) {
            grow();
        }
        head = head + 1 & names.length - 1;
        names[head] = name;
        values[head] = value;
        checked[head] = false;
        if (keepHashes) {
            nameHashes[head] = nameHash;
            valueHashes[head] = valueHash;
            link(head);
        }
        length++;
        size += entrySize;
    }

    /** Applies a new capacity, evicting the oldest entries until the table fits (§4.3). */
    void setCapacity(long capacity) {
        this.capacity = capacity;
        evictTo(capacity);
    }

    private void evictTo(long maxSize) {
        while (size > maxSize) {
            int oldest = slot(length);
            size -= entrySize(names[oldest], values[oldest]);
            if (keepHashes) {
                unlinkTail(oldest);
            }
            names[oldest] = null;
            values[oldest] = null;
            length--;
        }
    }

    private int slot(int i) {
        return head - i + 1 & names.length - 1;
    }

    /** Doubles the ring, moving the entries so the oldest lands in slot 0 and the newest in slot length - 1. */
    private void grow() {
        int n = names.length;
        int oldest = slot(length);
        names = unroll(names, oldest, n);
        values = unroll(values, oldest, n);
        boolean[] biggerChecked = new boolean[n * 2];
        System.arraycopy(checked, oldest, biggerChecked, 0, n - oldest);
        System.arraycopy(checked, 0, biggerChecked, n - oldest, oldest);
        checked = biggerChecked;
        head = length - 1;
        if (keepHashes) {
            nameHashes = unroll(nameHashes, oldest, n);
            valueHashes = unroll(valueHashes, oldest, n);
            bucketHeads = new int[n * 2];
            nextInBucket = new int[n * 2];
            for (int s = 0; s < length; s++) { // oldest first, so each chain ends up newest first
                link(s);
            }
        }
    }

    /** Makes slot {@code s} the head of its bucket's chain. */
    private void link(int s) {
        int b = nameHashes[s] & bucketHeads.length - 1;
        nextInBucket[s] = bucketHeads[b];
        bucketHeads[b] = s + 1;
    }

    /** Removes slot {@code s}, the oldest entry and so the tail of its chain, from its bucket. */
    private void unlinkTail(int s) {
        int b = nameHashes[s] & bucketHeads.length - 1;
        if (bucketHeads[b] == s + 1) {
            bucketHeads[b] = 0;
            return;
        }
        int p = bucketHeads[b] - 1;
        while (nextInBucket[p] != s + 1) {
            p = nextInBucket[p] - 1;
        }
        nextInBucket[p] = 0;
    }

    private static AsciiString[] unroll(AsciiString[] ring, int oldest, int n) {
        AsciiString[] bigger = new AsciiString[n * 2];
        System.arraycopy(ring, oldest, bigger, 0, n - oldest);
        System.arraycopy(ring, 0, bigger, n - oldest, oldest);
        return bigger;
    }

    private static int[] unroll(int[] ring, int oldest, int n) {
        int[] bigger = new int[n * 2];
        System.arraycopy(ring, oldest, bigger, 0, n - oldest);
        System.arraycopy(ring, 0, bigger, n - oldest, oldest);
        return bigger;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("HpackDynamicTable[size=").append(size).append('/').append(capacity);
        for (int i = 1; i <= length; i++) {
            sb.append(", [").append(i).append("] ").append(name(i)).append(": ").append(value(i));
        }
        return sb.append(']').toString();
    }
}
