package io.rill.channel;

import java.util.Objects;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.util.InternalLogger;
import io.rill.util.concurrent.Promise;

/**
 * What a {@link HandlerContext} does when dispatching an event goes wrong: the target's executor
 * refuses the task, an outbound handler throws, or the caller hands in a promise that cannot
 * take the outcome. Static and small, so the checks made on every operation inline.
 */
final class DispatchFailures {

    /** Logged under the context's name: these are its dispatch's failures. */
    private static final InternalLogger LOG = InternalLogger.get(HandlerContext.class);

    private DispatchFailures() {
    }

    /** {@code target}'s executor refused a task: {@code promise} fails (or it is logged) and {@code msg} is released. */
    static void refused(HandlerContext target, Throwable cause, Promise<Void> promise, Object msg) {
        ReferenceCountUtil.safeRelease(msg);
        if (promise == null || !promise.tryFailure(cause)) {
            LOG.warn("Could not hand an event to " + target.executor() + " for handler '" + target.name() + "'", cause);
        }
    }

    /** An outbound handler threw: its promise carries the failure (a void promise turns it into exceptionCaught). */
    static void failOutbound(HandlerContext ctx, Promise<Void> promise, Throwable cause) {
        if (cause instanceof OutOfMemoryError oom) {
            ResourceExhaustion.closeFor(ctx.channel(), oom);
        }
        if (!promise.tryFailure(cause) && !(promise instanceof VoidChannelPromise)) {
            LOG.warn("Handler '" + ctx.name() + "' threw after completing its promise " + promise, cause);
        }
    }

    /** False (and nothing to do) if the promise was cancelled already; throws if it is otherwise unusable. */
    static boolean validPromise(Promise<Void> promise) {
        Objects.requireNonNull(promise, "promise");
        if (promise.isDone()) {
            if (promise.isCancelled()) {
                return false;
            }
            throw new IllegalArgumentException("promise already completed: " + promise);
        }
        return true;
    }
}
