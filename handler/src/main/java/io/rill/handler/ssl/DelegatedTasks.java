package io.rill.handler.ssl;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * An engine's delegated tasks (key exchange, certificate checks: they can take milliseconds), run
 * inline on the event loop or on an executor, after which the handshake resumes on the loop. While
 * they run elsewhere the engine must not be used. Event-loop thread only.
 */
final class DelegatedTasks {

    /** Where the tasks run; null: inline. */
    private final Executor executor;
    private boolean running;

    DelegatedTasks(Executor executor) {
        this.executor = executor;
    }

    /** {@return true while tasks run on the executor: the engine must wait} */
    boolean isRunning() {
        return running;
    }

    /**
     * Runs {@code engine}'s pending tasks. Inline, returns the handshake status after them; with an
     * executor, returns null and later runs {@code resume} on {@code loop} with the task's failure, or
     * null if all succeeded.
     *
     * @throws SSLException if the executor refused the tasks
     */
    HandshakeStatus run(SSLEngine engine, Executor loop, Consumer<Throwable> resume) throws SSLException {
        List<Runnable> tasks = new ArrayList<>(2);
        for (Runnable task; (task = engine.getDelegatedTask()) != null; ) {
            tasks.add(task);
        }
        if (executor == null) {
            tasks.forEach(Runnable::run);
            return engine.getHandshakeStatus();
        }
        running = true;
        try {
            executor.execute(() -> {
                Throwable failure = null;
                try {
                    tasks.forEach(Runnable::run);
                } catch (Throwable t) {
                    failure = t;
                }
                Throwable cause = failure;
                loop.execute(() -> {
                    running = false;
                    resume.accept(cause);
                });
            });
        } catch (RuntimeException e) {
            running = false;
            throw new SSLException("the delegated task executor refused the engine's tasks", e);
        }
        return null;
    }
}
