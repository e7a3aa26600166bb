package io.rill.util.concurrent;

import java.util.Arrays;

/**
 * A binary min-heap of scheduled tasks ordered by deadline, then submission order. Each task
 * stores its index, so removing a cancelled task from the middle costs O(log n) instead of the
 * O(n) search of {@code java.util.PriorityQueue.remove(Object)}. Used by one thread only.
 */
final class ScheduledTaskQueue {

    private ScheduledFutureTask<?>[] heap = new ScheduledFutureTask<?>[16];
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    ScheduledFutureTask<?> peek() {
        return size == 0 ? null : heap[0];
    }

    void add(ScheduledFutureTask<?> task) {
        if (task.heapIndex != -1) {
            throw new IllegalStateException("already queued: " + task);
        }
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size << 1);
        }
        siftUp(size++, task);
    }

    ScheduledFutureTask<?> poll() {
        if (size == 0) {
            return null;
        }
        ScheduledFutureTask<?> first = heap[0];
        removeAt(0);
        return first;
    }

    /** Removes {@code task} if it is queued here; returns whether it was. */
    boolean remove(ScheduledFutureTask<?> task) {
        int i = task.heapIndex;
        if (i < 0 || i >= size || heap[i] != task) {
            return false;
        }
        removeAt(i);
        return true;
    }

    /** Empties the queue and returns what it held, in no particular order. */
    ScheduledFutureTask<?>[] drain() {
        ScheduledFutureTask<?>[] all = Arrays.copyOf(heap, size);
        for (ScheduledFutureTask<?> t : all) {
            t.heapIndex = -1;
        }
        Arrays.fill(heap, 0, size, null);
        size = 0;
        return all;
    }

    private void removeAt(int i) {
        ScheduledFutureTask<?> removed = heap[i];
        removed.heapIndex = -1;
        ScheduledFutureTask<?> last = heap[--size];
        heap[size] = null;
        if (i == size) {
            return;
        }
        // The last element may belong above or below the hole.
        siftDown(i, last);
        if (heap[i] == last) {
            siftUp(i, last);
        }
    }

    private void siftUp(int i, ScheduledFutureTask<?> task) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            ScheduledFutureTask<?> p = heap[parent];
            if (task.compareTo(p) >= 0) {
                break;
            }
            place(i, p);
            i = parent;
        }
        place(i, task);
    }

    private void siftDown(int i, ScheduledFutureTask<?> task) {
        int half = size >>> 1;
        while (i < half) {
            int child = (i << 1) + 1;
            int right = child + 1;
            if (right < size && heap[right].compareTo(heap[child]) < 0) {
                child = right;
            }
            if (task.compareTo(heap[child]) <= 0) {
                break;
            }
            place(i, heap[child]);
            i = child;
        }
        place(i, task);
    }

    private void place(int i, ScheduledFutureTask<?> task) {
        heap[i] = task;
        task.heapIndex = i;
    }
}
