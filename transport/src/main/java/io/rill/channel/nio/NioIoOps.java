package io.rill.channel.nio;

import java.nio.channels.SelectionKey;

import io.rill.channel.IoOps;

/**
 * A set of {@link SelectionKey} operations. Every possible set is made once up front, so the
 * selector loop hands out readiness without allocating.
 */
public final class NioIoOps implements IoOps {

    private static final int ALL = SelectionKey.OP_READ | SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT
            | SelectionKey.OP_ACCEPT;
    private static final NioIoOps[] CACHE = new NioIoOps[ALL + 1];

    static {
        for (int i = 0; i < CACHE.length; i++) {
            CACHE[i] = new NioIoOps(i);
        }
    }

    /** The empty set. */
    public static final NioIoOps NONE = valueOf(0);
    /** {@code OP_ACCEPT}: a connection waits to be accepted. */
    public static final NioIoOps ACCEPT = valueOf(SelectionKey.OP_ACCEPT);
    /** {@code OP_CONNECT}: a connect finished. */
    public static final NioIoOps CONNECT = valueOf(SelectionKey.OP_CONNECT);
    /** {@code OP_READ}: input is ready. */
    public static final NioIoOps READ = valueOf(SelectionKey.OP_READ);
    /** {@code OP_WRITE}: output space is available. */
    public static final NioIoOps WRITE = valueOf(SelectionKey.OP_WRITE);
    /** {@code OP_READ} and {@code OP_WRITE}. */
    public static final NioIoOps READ_AND_WRITE = valueOf(SelectionKey.OP_READ | SelectionKey.OP_WRITE);

    private final int ops;

    private NioIoOps(int ops) {
        this.ops = ops;
    }

    /**
     * The set for {@code ops}, a combination of {@code SelectionKey.OP_*} bits.
     *
     * @param ops {@code SelectionKey.OP_*} bits
     * @return the shared instance
     */
    public static NioIoOps valueOf(int ops) {
        if ((ops & ~ALL) != 0) {
            throw new IllegalArgumentException("not SelectionKey operations: 0x" + Integer.toHexString(ops));
        }
        return CACHE[ops];
    }

    @Override
    public long value() {
        return ops;
    }

    /** {@return the {@code SelectionKey.OP_*} bits} */
    public int intValue() {
        return ops;
    }

    /**
     * {@return true if every operation of {@code other} is in this set}
     *
     * @param other the operations to test
     */
    public boolean contains(NioIoOps other) {
        return (ops & other.ops) == other.ops;
    }

    /**
     * {@return this set plus the operations of {@code other}}
     *
     * @param other the operations to add
     */
    public NioIoOps with(NioIoOps other) {
        return CACHE[ops | other.ops];
    }

    /**
     * {@return this set without the operations of {@code other}}
     *
     * @param other the operations to remove
     */
    public NioIoOps without(NioIoOps other) {
        return CACHE[ops & ~other.ops];
    }

    /** {@return true if {@code OP_READ} is in the set} */
    public boolean isReadable() {
        return (ops & SelectionKey.OP_READ) != 0;
    }

    /** {@return true if {@code OP_WRITE} is in the set} */
    public boolean isWritable() {
        return (ops & SelectionKey.OP_WRITE) != 0;
    }

    /** {@return true if {@code OP_CONNECT} is in the set} */
    public boolean isConnectable() {
        return (ops & SelectionKey.OP_CONNECT) != 0;
    }

    /** {@return true if {@code OP_ACCEPT} is in the set} */
    public boolean isAcceptable() {
        return (ops & SelectionKey.OP_ACCEPT) != 0;
    }

    @Override
    public String toString() {
        if (ops == 0) {
            return "NioIoOps(NONE)";
        }
        StringBuilder sb = new StringBuilder("NioIoOps(");
        if (isAcceptable()) {
            sb.append("ACCEPT|");
        }
        if (isConnectable()) {
            sb.append("CONNECT|");
        }
        if (isReadable()) {
            sb.append("READ|");
        }
        if (isWritable()) {
            sb.append("WRITE|");
        }
        sb.setCharAt(sb.length() - 1, ')');
        return sb.toString();
    }
}
