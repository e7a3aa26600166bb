package io.rill.resolver.dns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class DnsCacheTest {

    private final AtomicLong clock = new AtomicLong();

    @Test
    void dns_07_theCacheNeverHoldsMoreThanItsBound() throws Exception {
        DnsCache cache = new DnsCache(clock::get, 100);
        List<InetAddress> a = List.of(InetAddress.getByName("192.0.2.1"));
        for (int i = 0; i < 100_000; i++) {
            cache.putPositive("n" + i + ".example./1", a, TimeUnit.HOURS.toNanos(1));
            assertTrue(cache.size() <= 100, "size " + cache.size() + " after " + i);
        }
        assertNotNull(cache.get("n99999.example./1"), "the newest entry is kept");
    }

    @Test
    void expiredEntriesGoFirstWhenTheCacheIsFull() throws Exception {
        DnsCache cache = new DnsCache(clock::get, 2);
        List<InetAddress> a = List.of(InetAddress.getByName("192.0.2.1"));
        cache.putPositive("short", a, TimeUnit.SECONDS.toNanos(1));
        cache.putPositive("long", a, TimeUnit.HOURS.toNanos(1));
        clock.addAndGet(TimeUnit.SECONDS.toNanos(2));
        cache.putPositive("new", a, TimeUnit.HOURS.toNanos(1));
        assertNotNull(cache.get("long"));
        assertNotNull(cache.get("new"));
        assertNull(cache.get("short"));
        assertEquals(2, cache.size());
    }

    @Test
    void aZeroTtlIsNotCached() throws Exception {
        DnsCache cache = new DnsCache(clock::get, 10);
        cache.putPositive("zero", List.of(InetAddress.getByName("192.0.2.1")), 0);
        assertNull(cache.get("zero"));
    }
}
