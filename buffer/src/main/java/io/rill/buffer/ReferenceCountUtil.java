package io.rill.buffer;

import io.rill.util.InternalLogger;

/**
 * Reference-counting helpers for objects that may or may not be {@link ReferenceCounted}
 * (pipeline messages, mostly): on anything else they do nothing.
 */
public final class ReferenceCountUtil {

    private static final InternalLogger logger = InternalLogger.get(ReferenceCountUtil.class);

    private ReferenceCountUtil() {
    }

    /**
     * Retains {@code msg} if it is reference-counted; returns it.
     *
     * @param <T> the message type
     * @param msg any message
     * @return {@code msg}
     */
    @SuppressWarnings("unchecked")
    public static <T> T retain(T msg) {
        if (msg instanceof ReferenceCounted) {
            return (T) ((ReferenceCounted) msg).retain();
        }
        return msg;
    }

    /**
     * Retains {@code msg} {@code increment} times if it is reference-counted.
     *
     * @param <T> the message type
     * @param msg any message
     * @param increment the number of owners to add
     * @return {@code msg}
     */
    @SuppressWarnings("unchecked")
    public static <T> T retain(T msg, int increment) {
        if (msg instanceof ReferenceCounted) {
            return (T) ((ReferenceCounted) msg).retain(increment);
        }
        return msg;
    }

    /**
     * Records an access to {@code msg} for leak reports if it is reference-counted.
     *
     * @param <T> the message type
     * @param msg any message
     * @return {@code msg}
     */
    @SuppressWarnings("unchecked")
    public static <T> T touch(T msg) {
        if (msg instanceof ReferenceCounted) {
            return (T) ((ReferenceCounted) msg).touch();
        }
        return msg;
    }

    /**
     * Records an access to {@code msg} with a hint for leak reports if it is reference-counted.
     *
     * @param <T> the message type
     * @param msg any message
     * @param hint describes the access
     * @return {@code msg}
     */
    @SuppressWarnings("unchecked")
    public static <T> T touch(T msg, Object hint) {
        if (msg instanceof ReferenceCounted) {
            return (T) ((ReferenceCounted) msg).touch(hint);
        }
        return msg;
    }

    /**
     * Releases {@code msg} if it is reference-counted; false otherwise or if it is still alive.
     *
     * @param msg any message
     * @return true if it was reference-counted and is now freed
     */
    public static boolean release(Object msg) {
        return msg instanceof ReferenceCounted && ((ReferenceCounted) msg).release();
    }

    /**
     * Releases {@code msg} {@code decrement} times if it is reference-counted.
     *
     * @param msg any message
     * @param decrement the number of owners to drop
     * @return true if it was reference-counted and is now freed
     */
    public static boolean release(Object msg, int decrement) {
        return msg instanceof ReferenceCounted && ((ReferenceCounted) msg).release(decrement);
    }

    /**
     * Like {@link #release(Object)} but never throws: a failure (typically a double release) is
     * logged as a warning. For cleanup paths that must go on whatever happened.
     *
     * @param msg any message
     */
    public static void safeRelease(Object msg) {
        safeRelease(msg, 1);
    }

    /**
     * Like {@link #release(Object, int)} but logs a failure instead of throwing it.
     *
     * @param msg any message
     * @param decrement the number of owners to drop
     */
    public static void safeRelease(Object msg, int decrement) {
        try {
            release(msg, decrement);
        } catch (Throwable t) {
            logger.warn("Could not release " + msg + "; carrying on", t);
        }
    }

    /**
     * The count of {@code msg}, or -1 if it is not reference-counted.
     *
     * @param msg any message
     * @return the count, or -1
     */
    public static int refCnt(Object msg) {
        return msg instanceof ReferenceCounted ? ((ReferenceCounted) msg).refCnt() : -1;
    }
}
