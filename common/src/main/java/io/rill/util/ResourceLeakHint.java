package io.rill.util;

/**
 * A hint object that describes itself for leak reports. Passed to
 * {@link ResourceLeakTracker#record(Object)}, it is turned into text right away by
 * {@link #toHintString()} (other hints by {@code toString()}), so the report never keeps the
 * hint, or anything it refers to, alive. A pipeline context, for example, answers with its
 * handler's name, so the report says which handler last touched a leaked buffer.
 */
public interface ResourceLeakHint {

    /** {@return a short, human-readable description of where the resource is} */
    String toHintString();
}
