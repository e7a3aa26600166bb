package io.rill.channel;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The attributes of one channel. Most channels have none or one, so the map is created on
 * first use; after that, lookups take no lock.
 */
final class ChannelAttributes implements AttributeMap {

    /** Created on first attr(); replaced never. Guarded by this for creation only. */
    private volatile ConcurrentHashMap<AttributeKey<?>, Value<?>> values;

    @Override
    @SuppressWarnings("unchecked")
    public <T> Attribute<T> attr(AttributeKey<T> key) {
        if (key == null) {
            throw new NullPointerException("key");
        }
        ConcurrentHashMap<AttributeKey<?>, Value<?>> map = values;
        if (map == null) {
            synchronized (this) {
                map = values;
                if (map == null) {
                    values = map = new ConcurrentHashMap<>(4);
                }
            }
        }
        ConcurrentHashMap<AttributeKey<?>, Value<?>> owner = map;
        return (Attribute<T>) map.computeIfAbsent(key, k -> new Value<>(owner, k));
    }

    @Override
    public <T> boolean hasAttr(AttributeKey<T> key) {
        ConcurrentHashMap<AttributeKey<?>, Value<?>> map = values;
        return map != null && map.containsKey(key);
    }

    private static final class Value<T> extends AtomicReference<T> implements Attribute<T> {
        private static final long serialVersionUID = 1L;

        private final transient ConcurrentHashMap<AttributeKey<?>, Value<?>> owner;
        private final transient AttributeKey<T> key;

        Value(ConcurrentHashMap<AttributeKey<?>, Value<?>> owner, AttributeKey<T> key) {
            this.owner = owner;
            this.key = key;
        }

        @Override
        public AttributeKey<T> key() {
            return key;
        }

        @Override
        public T setIfAbsent(T value) {
            for (;;) {
                if (compareAndSet(null, value)) {
                    return null;
                }
                T current = get();
                if (current != null) {
                    return current;
                }
            }
        }

        @Override
        public T getAndRemove() {
            owner.remove(key, this);
            return getAndSet(null);
        }

        @Override
        public void remove() {
            getAndRemove();
        }
    }
}
