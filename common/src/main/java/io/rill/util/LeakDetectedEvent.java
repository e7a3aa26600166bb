package io.rill.util;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR event {@code io.rill.LeakDetected}: a tracked resource was garbage-collected without being
 * released. The same report goes to the log; the event puts it on the timeline of a recording,
 * next to the allocations and GCs around it.
 */
@Name("io.rill.LeakDetected")
@Label("Resource Leak Detected")
@Category("Rill")
@Description("A reference-counted resource became unreachable before it was released")
@StackTrace(false)
final class LeakDetectedEvent extends jdk.jfr.Event {

    @Label("Resource Type")
    @Description("Simple name of the leaked resource's class")
    String resourceType;

    @Label("Report")
    @Description("Where the resource was created and last accessed, as logged")
    String report;

    /** Commits one event if a recording wants it; the report is built already (for the log). */
    static void commit(String resourceType, String report) {
        LeakDetectedEvent event = new LeakDetectedEvent();
        if (event.shouldCommit()) {
            event.resourceType = resourceType;
            event.report = report;
            event.commit();
        }
    }
}
