package io.rill.channel;

/**
 * A value attached to a channel under an {@link AttributeKey}. All operations are atomic and
 * may be called from any thread.
 */
public interface Attribute<T> {

    AttributeKey<T> key();

    /** The current value, or null. */
    T get();

    void set(T value);

    /** Sets {@code value}, returns the previous one. */
    T getAndSet(T value);

    /** Sets {@code value} if none is set; returns the previous value (null if this call set it). */
    T setIfAbsent(T value);

    /** Sets {@code newValue} if the current value is {@code oldValue} (by identity). */
    boolean compareAndSet(T oldValue, T newValue);

    /**
     * Removes this attribute from its channel and returns its last value. A later
     * {@code attr(key)} makes a fresh, empty attribute.
     */
    T getAndRemove();

    /** Like {@link #getAndRemove()}, without the value. */
    void remove();
}
