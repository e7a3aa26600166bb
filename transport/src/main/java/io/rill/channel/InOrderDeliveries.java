package io.rill.channel;

import java.util.ArrayDeque;

import io.rill.util.concurrent.Promise;

/**
 * The results of one channel's blocking tasks, delivered in the order the tasks were submitted:
 * a result that arrives early waits in its slot until every earlier one has been delivered.
 * Event loop only, so it needs no lock.
 *
 * <pre>
 *   submitted:  [t1 running] [t2 done: "b"] [t3 done: "c"]   t1 finishes, then a, b, c go out
 * </pre>
 */
final class InOrderDeliveries {

    /** Submitted tasks whose results are not delivered yet, oldest first. */
    private final ArrayDeque<Slot<?>> slots = new ArrayDeque<>();

    /** A slot at the tail for the next task's result. */
    <T> Slot<T> reserve(Promise<T> promise) {
        Slot<T> slot = new Slot<>(promise);
        slots.add(slot);
        return slot;
    }

    /** Fills {@code slot}, then delivers every finished result at the head, oldest first. */
    <T> void finish(Slot<T> slot, T value, Throwable cause) {
        slot.value = value;
        slot.cause = cause;
        slot.finished = true;
        for (Slot<?> head = slots.peek(); head != null && head.finished; head = slots.peek()) {
            slots.poll();
            head.deliver();
        }
    }

    /** Fails {@code slot}'s future at once, out of order: its loop is gone. Any thread. */
    static void failDirectly(Slot<?> slot, Throwable cause) {
        slot.promise.tryFailure(cause);
    }

    /** Results not yet delivered. */
    int pending() {
        return slots.size();
    }

    /** The place of one task's result. */
    static final class Slot<T> {
        private final Promise<T> promise;
        private boolean finished;
        private T value;
        private Throwable cause;

        Slot(Promise<T> promise) {
            this.promise = promise;
        }

        private void deliver() {
            if (cause == null) {
                promise.trySuccess(value);
            } else {
                promise.tryFailure(cause);
            }
        }
    }
}
