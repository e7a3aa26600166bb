package io.rill.channel;

/** Something that carries {@link Attribute}s: every {@link Channel}. */
public interface AttributeMap {

    /**
     * The attribute for {@code key}, created empty on first use; never null.
     *
     * @param <T> the value type
     * @param key the key
     * @return the attribute
     */
    <T> Attribute<T> attr(AttributeKey<T> key);

    /**
     * True if an attribute for {@code key} exists (it may hold null).
     *
     * @param <T> the value type
     * @param key the key
     * @return true if it exists
     */
    <T> boolean hasAttr(AttributeKey<T> key);
}
