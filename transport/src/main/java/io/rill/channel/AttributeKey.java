package io.rill.channel;

/**
 * The key of an {@link Attribute} of a channel. Keys are singletons per name:
 * {@code AttributeKey.valueOf("user")} always returns the same key, so declare them as
 * {@code static final} constants. The type parameter is not part of the identity.
 *
 * @param <T> the type of the attribute's value
 */
public final class AttributeKey<T> {

    private static final ConstantPool<AttributeKey<Object>> POOL = new ConstantPool<>(AttributeKey::new);

    /** Position in the pool, unique per key. */
    private final int id;
    private final String name;

    private AttributeKey(int id, String name) {
        this.id = id;
        this.name = name;
    }

    /**
     * The key named {@code name}, created on first use.
     *
     * @param <T> the value type
     * @param name the key's name
     * @return the key
     */
    @SuppressWarnings("unchecked")
    public static <T> AttributeKey<T> valueOf(String name) {
        return (AttributeKey<T>) (AttributeKey<?>) POOL.valueOf(name);
    }

    /**
     * A new key; throws {@link IllegalArgumentException} if {@code name} is already taken.
     *
     * @param <T> the value type
     * @param name the key's name, not yet used
     * @return the new key
     */
    @SuppressWarnings("unchecked")
    public static <T> AttributeKey<T> newInstance(String name) {
        return (AttributeKey<T>) (AttributeKey<?>) POOL.newInstance(name);
    }

    /**
     * True if a key named {@code name} exists.
     *
     * @param name the key's name
     * @return true if it exists
     */
    public static boolean exists(String name) {
        return POOL.exists(name);
    }

    /** {@return the key's name} */
    public String name() {
        return name;
    }

    /** {@return a number unique to this key, in the order keys were created} */
    public int id() {
        return id;
    }

    @Override
    public String toString() {
        return name;
    }
}
