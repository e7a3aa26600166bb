package io.rill.example;

/** The one line an example prints when it cannot start: what it tried, and the root cause. */
final class StartupFailure extends Exception {

    private static final long serialVersionUID = 1L;

    /**
     * @param what what the example was doing, e.g. "cannot listen on 127.0.0.1:8080"
     * @param cause why it failed
     */
    StartupFailure(String what, Throwable cause) {
        super(what, cause);
    }

    /**
     * {@code failure}'s message and its root cause's, joined by ": " (the layers between mostly
     * repeat the root's words), or one of them when they say the same.
     */
    static String describe(Throwable failure) {
        Throwable root = failure;
        for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 16; depth++) {
            root = root.getCause();
        }
        String outer = messageOf(failure);
        String inner = messageOf(root);
        return root == failure || outer.contains(inner) ? outer : outer + ": " + inner;
    }

    private static String messageOf(Throwable t) {
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
