package io.rill.resolver.dns;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

import io.rill.util.concurrent.Future;

/**
 * Answers by key until their TTL runs out: positive ones (addresses) and negative ones (the name
 * or the data does not exist, RFC 2308), each TTL clamped to the builder's bounds. At most
 * {@code maxEntries} entries: when full, expired entries go first, then arbitrary ones, so the
 * cache's memory is bounded whatever names a peer makes us look up. Used by one event loop only.
 */
final class DnsCache {

    /**
     * One cached answer: {@code addresses} non-null for a positive one, {@code failure} for a
     * negative one; valid while the clock is before {@code expiresAt}. {@code resolved}, when not
     * null, is a future already succeeded with {@code addresses}, handed to every caller alike.
     */
    record Entry(List<InetAddress> addresses, DnsResolveException failure, long expiresAt,
                 Future<List<InetAddress>> resolved) {
    }

    private final Map<String, Entry> entries = new HashMap<>();
    private final LongSupplier clock;
    private final int maxEntries;

    DnsCache(LongSupplier clock, int maxEntries) {
        this.clock = clock;
        this.maxEntries = maxEntries;
    }

    /** The live entry for {@code key}, or null; an expired one is dropped. */
    Entry get(String key) {
        Entry e = entries.get(key);
        if (e == null) {
            return null;
        }
        if (clock.getAsLong() - e.expiresAt >= 0) {
            entries.remove(key);
            return null;
        }
        return e;
    }

    void putPositive(String key, List<InetAddress> addresses, long ttlNanos) {
        putPositive(key, addresses, ttlNanos, null);
    }

    void putPositive(String key, List<InetAddress> addresses, long ttlNanos, Future<List<InetAddress>> resolved) {
        put(key, new Entry(addresses, null, clock.getAsLong() + ttlNanos, resolved));
    }

    void putNegative(String key, DnsResolveException failure, long ttlNanos) {
        put(key, new Entry(null, failure, clock.getAsLong() + ttlNanos, null));
    }

    private void put(String key, Entry entry) {
        if (entry.expiresAt - clock.getAsLong() <= 0) {
            return;
        }
        if (entries.size() >= maxEntries && !entries.containsKey(key)) {
            evict();
        }
        entries.put(key, entry);
    }

    private void evict() {
        long now = clock.getAsLong();
        entries.values().removeIf(e -> now - e.expiresAt >= 0);
        Iterator<String> it = entries.keySet().iterator();
        while (entries.size() >= maxEntries && it.hasNext()) {
            it.next();
            it.remove();
        }
    }

    int size() {
        return entries.size();
    }

    void clear() {
        entries.clear();
    }
}
