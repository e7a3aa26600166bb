package io.rill.example;

import java.util.concurrent.CompletableFuture;

/**
 * Runs a blocking task on a daemon thread of its own. Not the common pool: on a small machine it
 * has one thread or none, and a task blocked on a socket there starves every later one.
 */
final class TestThreads {

    private TestThreads() {
    }

    static CompletableFuture<Void> run(String name, Runnable task) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                task.run();
                done.complete(null);
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return done;
    }
}
