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

    /** Retains {@code msg} if it is reference-counted; returns it. */
    @SuppressWarnings("unchecked")
    public static <T> T retain(T msg) {
        if (msg instanceof ReferenceCounted) {
            return (T) ((ReferenceCounted) msg).retain();
        }
        return msg;
    }

    @SuppressWarnings("unchecked")
    public static <T> T retain(T msg, int increment) {
        if (msg instanceof ReferenceCounted) {
            return (T) ((ReferenceCounted) msg).retain(increment);
        }
        return msg;
    }

    @SuppressWarnings("unchecked")
    public static <T> T touch(T msg) {
        if (msg instanceof ReferenceCounted) {
            return (T) ((ReferenceCounted) msg).touch();
        }
        return msg;
    }

    @SuppressWarnings("unchecked")
    public static <T> T touch(T msg, Object hint) {
        if (msg instanceof ReferenceCounted) {
            return (T) ((ReferenceCounted) msg).touch(hint);
        }
        return msg;
    }

    /** Releases {@code msg} if it is reference-counted; false otherwise or if it is still alive. */
    public static boolean release(Object msg) {
        return msg instanceof ReferenceCounted && ((ReferenceCounted) msg).release();
    }

    public static boolean release(Object msg, int decrement) {
        return msg instanceof ReferenceCounted && ((ReferenceCounted) msg).release(decrement);
    }

    /**
     * Like {@link #release(Object)} but never throws: a failure (typically a double release) is
     * logged as a warning. For cleanup paths that must go on whatever happened.
     */
    public static void safeRelease(Object msg) {
        safeRelease(msg, 1);
    }

    public static void safeRelease(Object msg, int decrement) {
        try {
            release(msg, decrement);
        } catch (Throwable t) {
            logger.warn("Could not release " + msg + "; carrying on", t);
        }
    }

    /** The count of {@code msg}, or -1 if it is not reference-counted. */
    public static int refCnt(Object msg) {
        return msg instanceof ReferenceCounted ? ((ReferenceCounted) msg).refCnt() : -1;
    }
}
