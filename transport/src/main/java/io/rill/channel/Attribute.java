package io.rill.channel;

/**
 * A value attached to a channel under an {@link AttributeKey}. All operations are atomic and
 * may be called from any thread.
 *
 * @param <T> the type of the value
 */
public interface Attribute<T> {

    /** {@return the key of this attribute} */
    AttributeKey<T> key();

    /** {@return the current value, or null} */
    T get();

    /**
     * Sets the value. Thread-safe.
     *
     * @param value the new value, or null
     */
    void set(T value);

    /**
     * Sets {@code value}, returns the previous one.
     *
     * @param value the new value, or null
     * @return the previous value
     */
    T getAndSet(T value);

    /**
     * Sets {@code value} if none is set; returns the previous value (null if this call set it).
     *
     * @param value the value to set
     * @return the previous value, or null if this call set it
     */
    T setIfAbsent(T value);

    /**
     * Sets {@code newValue} if the current value is {@code oldValue} (by identity).
     *
     * @param oldValue the expected value
     * @param newValue the value to set
     * @return true if this call set it
     */
    boolean compareAndSet(T oldValue, T newValue);

    /**
     * Removes this attribute from its channel and returns its last value. A later
     * {@code attr(key)} makes a fresh, empty attribute.
     *
     * @return the last value, or null
     */
    T getAndRemove();

    /** Like {@link #getAndRemove()}, without the value. */
    void remove();
}
