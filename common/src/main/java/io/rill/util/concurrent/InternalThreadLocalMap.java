package io.rill.util.concurrent;

/** Placeholder: replaced by the FastThreadLocal implementation. */
final class InternalThreadLocalMap {
}
