package io.rill.testsuite.soak;

import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The soak's books. Every request that is not deliberately faulted gets an id from {@link #issue}
 * and must come back exactly once through {@link #answered}; what a fault or an attack brings back
 * is counted per kind ({@link #expected}); anything else is a {@link #failure}.
 */
final class Ledger {

    private final AtomicLong nextId = new AtomicLong();
    /** Ids issued and not yet answered. */
    private final Set<Long> pending = ConcurrentHashMap.newKeySet();
    private final Map<String, LongAdder> served = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> faults = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
    /** Datagrams that never came back, per server: UDP may drop, so they are not "lost" requests. */
    private final Map<String, LongAdder> dropped = new ConcurrentHashMap<>();
    private final LongAdder duplicates = new LongAdder();
    private final LongAdder failureCount = new LongAdder();
    /** The first failures, kept whole for the report; later ones are only counted. */
    private final Queue<String> failures = new ConcurrentLinkedQueue<>();

    long issue() {
        long id = nextId.incrementAndGet();
        pending.add(id);
        return id;
    }

    /** Records the answer to {@code id}; an id answered twice, or never issued, is a failure. */
    void answered(String kind, long id) {
        if (pending.remove(id)) {
            served.computeIfAbsent(kind, k -> new LongAdder()).increment();
        } else {
            duplicates.increment();
            failure(kind + ": id " + id + " answered twice or never asked");
        }
    }

    /** A datagram {@code id} that did not come back in time: counted apart from lost requests. */
    void dropped(String kind, long id) {
        if (pending.remove(id)) {
            dropped.computeIfAbsent(kind, k -> new LongAdder()).increment();
        }
    }

    void fault(String kind) {
        faults.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    /** An error the soak provoked and the server answered as it should (a 400, a close 1002...). */
    void expected(String kind) {
        outcomes.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    void failure(String what) {
        failureCount.increment();
        if (failures.size() < 40) {
            failures.add(what);
        }
    }

    long lost() {
        return pending.size();
    }

    long duplicates() {
        return duplicates.sum();
    }

    long failures() {
        return failureCount.sum();
    }

    Queue<String> failureMessages() {
        return failures;
    }

    long servedTotal() {
        return served.values().stream().mapToLong(LongAdder::sum).sum();
    }

    long faultTotal() {
        return faults.values().stream().mapToLong(LongAdder::sum).sum();
    }

    Map<String, Long> served() {
        return snapshot(served);
    }

    Map<String, Long> dropped() {
        return snapshot(dropped);
    }

    Map<String, Long> faults() {
        return snapshot(faults);
    }

    Map<String, Long> outcomes() {
        return snapshot(outcomes);
    }

    private static Map<String, Long> snapshot(Map<String, LongAdder> counters) {
        Map<String, Long> sorted = new TreeMap<>();
        counters.forEach((k, v) -> sorted.put(k, v.sum()));
        return sorted;
    }
}
