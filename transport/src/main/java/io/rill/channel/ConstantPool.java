package io.rill.channel;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * Named singletons ({@link AttributeKey}s, {@link ChannelOption}s): one instance per name, so
 * keys can be compared by identity and looked up by name from configuration.
 */
final class ConstantPool<T> {

    /** Name → the one constant of that name; entries are never removed. */
    private final ConcurrentMap<String, T> constants = new ConcurrentHashMap<>();
    private final AtomicInteger nextId = new AtomicInteger(1);
    /** Makes a constant from its id and name. */
    private final BiFunction<Integer, String, T> factory;

    ConstantPool(BiFunction<Integer, String, T> factory) {
        this.factory = factory;
    }

    /** The constant named {@code name}, created on first use. */
    T valueOf(String name) {
        checkName(name);
        return constants.computeIfAbsent(name, n -> factory.apply(nextId.getAndIncrement(), n));
    }

    /** A new constant; throws if {@code name} is taken, so two libraries cannot share a key by accident. */
    T newInstance(String name) {
        return newInstance(name, factory);
    }

    /** Like {@link #newInstance(String)} with a factory of the caller's choice (e.g. to attach a value type). */
    T newInstance(String name, BiFunction<Integer, String, T> maker) {
        checkName(name);
        T created = maker.apply(nextId.getAndIncrement(), name);
        if (constants.putIfAbsent(name, created) != null) {
            throw new IllegalArgumentException("'" + name + "' is already in use");
        }
        return created;
    }

    boolean exists(String name) {
        checkName(name);
        return constants.containsKey(name);
    }

    private static void checkName(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("name must be non-empty: " + name);
        }
    }
}
