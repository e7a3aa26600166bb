package io.rill.util;

import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import jdk.jfr.FlightRecorder;

/**
 * Finds resources (buffers, mostly) that became unreachable without being released.
 *
 * <p>How: {@link #track} wraps a sampled object in a {@link PhantomReference} registered with one
 * JVM-wide {@link ReferenceQueue}, and keeps the reference in a set of live trackers (a
 * reference that is itself unreachable is never enqueued). {@link ResourceLeakTracker#close}
 * removes it from the set and clears it. A reference that shows up in the queue while still in
 * the set is a leak: its object was collected and nobody closed it. The queue is polled on every
 * sampled {@code track} call and by {@link #checkForLeaks()}; leaks are logged at ERROR through
 * {@link System.Logger} and handed to every {@link LeakListener}.
 *
 * <p>Cost by {@link Level}: DISABLED tracks nothing; SIMPLE tracks one object in
 * {@code samplingInterval} and records nothing else, so a report can only say that something
 * leaked; ADVANCED also records the creation point and the last accesses (each a captured,
 * not yet formatted, stack trace); PARANOID does the same for every object.
 *
 * <p>Hints given to {@link ResourceLeakTracker#record(Object)} are rendered through
 * {@link ResourceLeakHint#toHintString()} (top-level in {@code io.rill.util}) or {@code toString()}.
 *
 * @param <T> the tracked resource type
 */
public class ResourceLeakDetector<T> {

    /** How much leak detection costs, and tells. Set by {@code rill.leakDetection.level}. */
    public enum Level {
        /** No tracking at all. */
        DISABLED,
        /** Samples one object per interval; a report says a leak happened, not where. */
        SIMPLE,
        /** Samples like SIMPLE and records creation and recent accesses of each sampled object. */
        ADVANCED,
        /** Tracks and records every object. For tests; far too slow for production. */
        PARANOID
    }

    /** Receives every leak found, in addition to the log. Used by test hooks to fail a test. */
    public interface LeakListener {
        /**
         * Called on the thread that found the leak (a {@code track} or {@link #checkForLeaks()}
         * caller). {@code report} is the same text that is logged.
         *
         * @param resourceType the simple name of the leaked type
         * @param report the leak report, with the recorded accesses
         */
        void onLeak(String resourceType, String report);
    }

    private static final InternalLogger logger = InternalLogger.get(ResourceLeakDetector.class);
    private static final String LEVEL_PROPERTY = "rill.leakDetection.level";
    /** Distinct reports logged so far are remembered up to this count to suppress repeats. */
    private static final int MAX_REMEMBERED_REPORTS = 1024;

    private static volatile Level level = RillProperties.LEAK_DETECTION_LEVEL;

    private static final ReferenceQueue<Object> queue = new ReferenceQueue<>();
    /** Trackers not yet closed or reported; strong references so the JVM can enqueue them. */
    private static final Set<Tracker<?>> live = ConcurrentHashMap.newKeySet();
    private static final List<LeakListener> listeners = new CopyOnWriteArrayList<>();
    private static final Set<String> reportedLeaks = ConcurrentHashMap.newKeySet();
    /** "class#method" frames left out of records: wrappers that only forward to the tracker. */
    private static final Set<String> excludedFrames = ConcurrentHashMap.newKeySet();
    private static final AtomicLong trackedCount = new AtomicLong();

    private final String resourceType;
    private final int samplingInterval;

    /**
     * A detector for {@code resourceType} sampling one in {@code rill.leakDetection.samplingInterval}.
     *
     * @param resourceType the tracked class, named in reports
     */
    public ResourceLeakDetector(Class<?> resourceType) {
        this(resourceType, RillProperties.LEAK_DETECTION_SAMPLING_INTERVAL);
    }

    /**
     * A detector for {@code resourceType} sampling one object in {@code samplingInterval} (1 = all).
     *
     * @param resourceType the tracked class, named in reports
     * @param samplingInterval track one object in this many
     */
    public ResourceLeakDetector(Class<?> resourceType, int samplingInterval) {
        if (samplingInterval < 1) {
            throw new IllegalArgumentException("samplingInterval: " + samplingInterval + " (expected >= 1)");
        }
        String simpleName = resourceType.getSimpleName();
        this.resourceType = simpleName.isEmpty() ? resourceType.getName() : simpleName;
        this.samplingInterval = samplingInterval;
    }

    /** {@return the current level, shared by all detectors} */
    public static Level level() {
        return level;
    }

    /**
     * Whether tracked objects record their accesses at the current level (ADVANCED or PARANOID):
     * callers skip building touch hints otherwise, which on a hot path costs a call per message.
     *
     * @return true at ADVANCED and PARANOID
     */
    public static boolean recordsAccesses() {
        return level.compareTo(Level.ADVANCED) >= 0;
    }

    /**
     * Changes the level for objects tracked from now on; already tracked objects keep theirs.
     *
     * @param newLevel the new level
     */
    public static void setLevel(Level newLevel) {
        level = Objects.requireNonNull(newLevel, "newLevel");
    }

    /**
     * Adds a listener that hears of every leak from now on; tests use it to fail on leaks.
     *
     * @param listener the listener
     */
    public static void addLeakListener(LeakListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Removes a listener added with {@link #addLeakListener}; a no-op if it is not registered.
     *
     * @param listener the listener
     */
    public static void removeLeakListener(LeakListener listener) {
        listeners.remove(listener);
    }

    /**
     * Leaves frames of {@code methodNames} in {@code owner} out of access records, for wrappers
     * whose only job is forwarding to a tracker (they would be the top frame of every record).
     *
     * @param owner the wrapper class
     * @param methodNames its forwarding methods
     */
    public static void addExclusions(Class<?> owner, String... methodNames) {
        Set<String> declared = new HashSet<>();
        for (var method : owner.getDeclaredMethods()) {
            declared.add(method.getName());
        }
        for (String name : methodNames) {
            if (!declared.contains(name)) {
                throw new IllegalArgumentException("no method '" + name + "' in " + owner.getName());
            }
            excludedFrames.add(owner.getName() + '#' + name);
        }
    }

    /**
     * Reports every tracked object that has been collected without being closed, and returns
     * how many there were. Does not trigger a GC: objects count only once the collector has
     * enqueued their references.
     *
     * @return the number of leaks reported
     */
    public static int checkForLeaks() {
        int leaks = 0;
        Reference<?> ref;
        while ((ref = queue.poll()) != null) {
            Tracker<?> tracker = (Tracker<?>) ref;
            if (live.remove(tracker)) {
                tracker.clear();
                report(tracker);
                leaks++;
            }
        }
        return leaks;
    }

    /**
     * How many trackers were created since the JVM started. A test hook compares it across
     * calls to skip the cost of a GC when nothing can have leaked.
     *
     * @return the number of trackers created so far
     */
    public static long trackedCount() {
        return trackedCount.get();
    }

    /** {@return the name used for the resource in reports} */
    public final String resourceType() {
        return resourceType;
    }

    /**
     * Starts tracking {@code obj}, or returns null when the level is DISABLED or the object was
     * not sampled. The caller must {@link ResourceLeakTracker#close close} the tracker when it
     * releases the object, and should not keep a reference from the tracker's owner to itself
     * beyond that.
     *
     * @param obj the object to track
     * @return the tracker, or null when not tracked
     */
    public final ResourceLeakTracker<T> track(T obj) {
        Level current = level;
        if (current == Level.DISABLED) {
            return null;
        }
        if (current != Level.PARANOID && samplingInterval > 1
                && ThreadLocalRandom.current().nextInt(samplingInterval) != 0) {
            return null;
        }
        checkForLeaks();
        Tracker<T> tracker = new Tracker<>(obj, this, current);
        live.add(tracker);
        trackedCount.incrementAndGet();
        return tracker;
    }

    private static void report(Tracker<?> tracker) {
        String report = tracker.report();
        boolean fresh = reportedLeaks.size() >= MAX_REMEMBERED_REPORTS || reportedLeaks.add(report);
        if (fresh) {
            logger.error(report);
        }
        if (FlightRecorder.isInitialized()) { // else the event class would load all of JFR
            LeakDetectedEvent.commit(tracker.detector.resourceType, report);
        }
        for (LeakListener listener : listeners) {
            try {
                listener.onLeak(tracker.detector.resourceType, report);
            } catch (RuntimeException e) {
                logger.warn("Leak listener " + listener + " failed", e);
            }
        }
    }

    /**
     * Follows one object. Records are kept oldest-first in {@code records}, bounded by
     * {@code rill.leakDetection.targetRecords}; see {@link #record(Object)} for which one goes
     * when the array is full.
     */
    private static final class Tracker<T> extends PhantomReference<Object> implements ResourceLeakTracker<T> {
        private final ResourceLeakDetector<?> detector;
        private final Level level;
        /** Identity hash of the referent: {@code close} checks it since a phantom's referent can't be read. */
        private final int trackedHash;
        /** Creation point; null at SIMPLE. */
        private final Record creation;
        /** Access records, oldest first; null at SIMPLE. Guarded by {@code this}. */
        private final Record[] records;
        private int recordCount;
        private int droppedCount;

        Tracker(Object referent, ResourceLeakDetector<?> detector, Level level) {
            super(referent, queue);
            this.detector = detector;
            this.level = level;
            this.trackedHash = System.identityHashCode(referent);
            boolean recording = level.compareTo(Level.SIMPLE) > 0;
            this.creation = recording ? new Record(null) : null;
            this.records = recording ? new Record[RillProperties.LEAK_DETECTION_TARGET_RECORDS] : null;
        }

        @Override
        public void record() {
            if (records != null) {
                add(new Record(null));
            }
        }

        @Override
        public void record(Object hint) {
            if (records != null) {
                add(new Record(hintString(hint)));
            }
        }

        /**
         * The newest record always stays. When full, one older record goes: the previous
         * newest with probability 1 - 2^-dropped, otherwise a random older one. As drops
         * accumulate, the early records freeze and only the latest slot churns, so a
         * long-lived object's report still spans its whole life. A lock, not a CAS loop:
         * capturing the stack trace costs far more than an uncontended monitor.
         */
        private synchronized void add(Record record) {
            int n = recordCount;
            if (n == records.length) {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                int dropped = droppedCount++;
                boolean dropPreviousNewest = dropped >= 30 || random.nextInt(1 << dropped) != 0;
                int victim = dropPreviousNewest ? n - 1 : random.nextInt(n);
                System.arraycopy(records, victim + 1, records, victim, n - victim - 1);
                n--;
            }
            records[n] = record;
            recordCount = n + 1;
        }

        @Override
        public boolean close(T trackedObject) {
            try {
                if (System.identityHashCode(trackedObject) != trackedHash || !live.remove(this)) {
                    return false;
                }
                clear();
                return true;
            } finally {
                // Until here the object must stay strongly reachable: were it collected while
                // close() runs, the reference could be enqueued and reported as a leak.
                Reference.reachabilityFence(trackedObject);
            }
        }

        String report() {
            StringBuilder out = new StringBuilder(512);
            out.append("LEAK: ").append(detector.resourceType)
                    .append(" was garbage-collected before it was released. Leak detection level ")
                    .append(level);
            if (level != Level.PARANOID) {
                out.append(" (one object in ").append(detector.samplingInterval).append(" tracked)");
            }
            out.append('.');
            if (records == null) {
                out.append(" To see where it was created and accessed, run with -D").append(LEVEL_PROPERTY)
                        .append("=ADVANCED (or PARANOID to track every object).\n");
                return out.toString();
            }
            if (level == Level.ADVANCED) {
                out.append(" To track every object, run with -D").append(LEVEL_PROPERTY).append("=PARANOID.");
            }
            Record[] snapshot;
            int dropped;
            synchronized (this) {
                snapshot = Arrays.copyOf(records, recordCount);
                dropped = droppedCount;
            }
            out.append("\nRecent access records (newest first, ").append(snapshot.length).append(" kept");
            if (dropped > 0) {
                out.append(", ").append(dropped).append(" dropped; keep more with -Drill.leakDetection.targetRecords");
            }
            out.append("):\n");
            Set<String> seen = new HashSet<>();
            int duplicates = 0;
            for (int i = snapshot.length - 1, shown = 0; i >= 0; i--) {
                String text = snapshot[i].format();
                if (!seen.add(text)) {
                    duplicates++;
                    continue;
                }
                out.append('#').append(++shown).append(':').append(text);
            }
            if (duplicates > 0) {
                out.append(duplicates).append(" identical record(s) left out.\n");
            }
            out.append("Created at:").append(creation.format());
            return out.toString();
        }

        private static String hintString(Object hint) {
            if (hint instanceof ResourceLeakHint leakHint) {
                return leakHint.toHintString();
            }
            return String.valueOf(hint);
        }
    }

    /**
     * One access point: a stack trace captured now and formatted only if a leak is reported.
     * The hint is already a string, so nothing the hint refers to is kept alive.
     */
    private static final class Record extends Throwable {
        private static final String DETECTOR = ResourceLeakDetector.class.getName();

        Record(String hint) {
            super(hint, null, false, true);
        }

        String format() {
            StringBuilder out = new StringBuilder(1024);
            if (getMessage() != null) {
                out.append(" Hint: ").append(getMessage());
            }
            out.append('\n');
            for (StackTraceElement frame : getStackTrace()) {
                String className = frame.getClassName();
                if (className.equals(DETECTOR) || className.startsWith(DETECTOR + '$')
                        || excludedFrames.contains(className + '#' + frame.getMethodName())) {
                    continue;
                }
                out.append("\tat ").append(frame).append('\n');
            }
            return out.toString();
        }
    }
}
