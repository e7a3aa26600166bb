package io.rill.bootstrap;

import java.net.ConnectException;
import java.util.List;

/**
 * Every address a host name resolved to refused or failed the connect; the message lists each
 * address with its cause, and the causes are attached as suppressed exceptions.
 */
public final class ConnectAttemptsFailedException extends ConnectException {

    private static final long serialVersionUID = 1L;

    private final transient List<String> failures;

    ConnectAttemptsFailedException(List<String> failures) {
        super("all " + failures.size() + " addresses failed: " + String.join("; ", failures));
        this.failures = List.copyOf(failures);
    }

    /**
     * One entry per address, {@code "address: cause"}, in the order the attempts failed.
     *
     * @return the failures
     */
    public List<String> failures() {
        return failures;
    }
}
