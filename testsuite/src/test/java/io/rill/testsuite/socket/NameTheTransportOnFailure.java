package io.rill.testsuite.socket;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.TestAbortedException;

/**
 * Prefixes a failure with the transport it happened on: every transport runs the same nested
 * classes, so the report's class and method names alone do not say which one failed.
 */
final class NameTheTransportOnFailure implements TestExecutionExceptionHandler {

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        Object test = context.getRequiredTestInstance();
        if (failure instanceof TestAbortedException || !(test instanceof AbstractSocketTest socketTest)
                || socketTest.transport == null) {
            throw failure;
        }
        AssertionError named = new AssertionError("[" + socketTest.transport.name() + "] " + failure, failure);
        named.setStackTrace(new StackTraceElement[0]); // the cause carries the real one
        throw named;
    }
}
