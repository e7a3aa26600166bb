package io.rill.microbench.load;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Runs a server's {@code main} in this JVM and, each time a line arrives on standard input,
 * prints {@code allocated N young-gcs C young-gc-ms T}: the bytes the JVM's live threads have
 * allocated so far, and the young collections so far with their total pause. A load script reads
 * it before and after a run and divides by the requests served, for Rill and its peers alike.
 * Usage: {@code AllocationProbe MAIN_CLASS [ARGS...]}.
 */
public final class AllocationProbe {

    private AllocationProbe() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("usage: AllocationProbe MAIN_CLASS [ARGS...]");
            System.exit(2);
        }
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        Thread server = new Thread(() -> {
            try {
                main.invoke(null, (Object) rest);
            } catch (ReflectiveOperationException e) {
                e.printStackTrace();
                System.exit(1);
            }
        }, "probed-main");
        server.start();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        while (in.readLine() != null) {
            long total = 0; // the live threads: a server's threads live as long as it does
            for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
                total += Math.max(0, bytes);
            }
            long collections = 0;
            long millis = 0;
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                if (isYoung(gc.getName())) {
                    collections += gc.getCollectionCount();
                    millis += gc.getCollectionTime();
                }
            }
            System.out.println("allocated " + total + " young-gcs " + collections + " young-gc-ms " + millis);
            System.out.flush();
        }
        server.join();
    }

    /** The young-generation collectors of the JDK's collectors (Parallel, G1, Serial, generational ZGC). */
    private static boolean isYoung(String collector) {
        return collector.equals("PS Scavenge") || collector.equals("G1 Young Generation") || collector.equals("Copy")
                || collector.equals("ZGC Minor Cycles");
    }
}
