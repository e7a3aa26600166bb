package io.rill.buffer;

/**
 * A reference-counted object was used after release, released more often than it was
 * retained, or retained past {@code Integer.MAX_VALUE}. The message quotes the counts.
 */
public class IllegalReferenceCountException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception with its own message.
     *
     * @param message what was wrong
     */
    public IllegalReferenceCountException(String message) {
        super(message);
    }

    /**
     * The object held {@code refCnt} and the caller tried to change it by {@code delta}.
     *
     * @param refCnt the count found
     * @param delta the change asked for
     */
    public IllegalReferenceCountException(int refCnt, int delta) {
        super((delta > 0 ? "cannot retain " + delta : "cannot release " + -delta) + ": " + countIs(refCnt));
    }

    /**
     * The object was accessed while its count was {@code refCnt} (0 means released).
     *
     * @param refCnt the count found
     */
    public IllegalReferenceCountException(int refCnt) {
        super("cannot use it: " + countIs(refCnt));
    }

    private static String countIs(int refCnt) {
        return "the reference count is " + refCnt + (refCnt == 0 ? " (released)" : "");
    }
}
