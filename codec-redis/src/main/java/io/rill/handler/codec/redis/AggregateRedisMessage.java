package io.rill.handler.codec.redis;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import io.rill.buffer.IllegalReferenceCountException;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.ReferenceCounted;

/**
 * A whole RESP aggregate: an array (every command is one), or a RESP3 map, set, push or attribute.
 * A map's and an attribute's {@link #children()} alternate key and value.
 *
 * <p>It owns its children: it has a reference count of its own, and the last release releases
 * every child that holds a buffer. Releasing a child separately would release it twice.
 */
public final class AggregateRedisMessage implements ReferenceCounted, RedisMessage {

    private static final VarHandle REF_CNT;

    static {
        try {
            REF_CNT = MethodHandles.lookup().findVarHandle(AggregateRedisMessage.class, "refCnt", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final RedisAggregateType type;
    private final List<RedisMessage> children;
    /** Owners; 0 once released. Changed only through {@link #REF_CNT}. */
    private volatile int refCnt = 1;

    /**
     * Creates the aggregate, which takes ownership of the children.
     *
     * @param type     the kind
     * @param children the elements; a map or an attribute needs an even count (key, value, ...)
     * @throws IllegalArgumentException if a map or an attribute has an odd number of children
     */
    public AggregateRedisMessage(RedisAggregateType type, List<? extends RedisMessage> children) {
        if (type.elementsPerEntry() == 2 && children.size() % 2 != 0) {
            throw new IllegalArgumentException(type + " with " + children.size() + " children (expected: an even count)");
        }
        this.type = type;
        this.children = Collections.unmodifiableList(children);
    }

    /**
     * An array of {@code children}.
     *
     * @param children the elements, owned by the array from now on
     * @return a new array
     */
    public static AggregateRedisMessage array(RedisMessage... children) {
        return new AggregateRedisMessage(RedisAggregateType.ARRAY, Arrays.asList(children));
    }

    /**
     * A command as clients send it: an array of bulk strings, the words as UTF-8.
     *
     * @param words the command's name and arguments
     * @return a new array (on the heap, nothing to release but by convention)
     */
    public static AggregateRedisMessage command(String... words) {
        List<RedisMessage> children = new ArrayList<>(words.length);
        for (String word : words) {
            children.add(FullBulkStringRedisMessage.of(word));
        }
        return new AggregateRedisMessage(RedisAggregateType.ARRAY, children);
    }

    /** {@return the kind of aggregate} */
    public RedisAggregateType type() {
        return type;
    }

    /** {@return the elements, in wire order; read-only} */
    public List<RedisMessage> children() {
        return children;
    }

    @Override
    public int refCnt() {
        return refCnt;
    }

    @Override
    public AggregateRedisMessage retain() {
        return retain(1);
    }

    @Override
    public AggregateRedisMessage retain(int increment) {
        if (increment <= 0) {
            throw new IllegalArgumentException("increment: " + increment + " (expected: > 0)");
        }
        for (;;) {
            int old = refCnt;
            if (old == 0 || old > Integer.MAX_VALUE - increment) {
                throw new IllegalReferenceCountException(old, increment);
            }
            if (REF_CNT.compareAndSet(this, old, old + increment)) {
                return this;
            }
        }
    }

    @Override
    public AggregateRedisMessage touch() {
        return this;
    }

    @Override
    public AggregateRedisMessage touch(Object hint) {
        for (RedisMessage child : children) {
            ReferenceCountUtil.touch(child, hint);
        }
        return this;
    }

    @Override
    public boolean release() {
        return release(1);
    }

    @Override
    public boolean release(int decrement) {
        if (decrement <= 0) {
            throw new IllegalArgumentException("decrement: " + decrement + " (expected: > 0)");
        }
        for (;;) {
            int old = refCnt;
            if (old < decrement) {
                throw new IllegalReferenceCountException(old, -decrement);
            }
            if (REF_CNT.compareAndSet(this, old, old - decrement)) {
                if (old != decrement) {
                    return false;
                }
                for (RedisMessage child : children) {
                    ReferenceCountUtil.release(child);
                }
                return true;
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AggregateRedisMessage other && type == other.type && children.equals(other.children);
    }

    @Override
    public int hashCode() {
        return type.hashCode() * 31 + children.hashCode();
    }

    @Override
    public String toString() {
        return "AggregateRedisMessage[" + type + ", " + children + "]";
    }
}
