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

    public static final NioIoOps NONE = valueOf(0);
    public static final NioIoOps ACCEPT = valueOf(SelectionKey.OP_ACCEPT);
    public static final NioIoOps CONNECT = valueOf(SelectionKey.OP_CONNECT);
    public static final NioIoOps READ = valueOf(SelectionKey.OP_READ);
    public static final NioIoOps WRITE = valueOf(SelectionKey.OP_WRITE);
    public static final NioIoOps READ_AND_WRITE = valueOf(SelectionKey.OP_READ | SelectionKey.OP_WRITE);

    private final int ops;

    private NioIoOps(int ops) {
        this.ops = ops;
    }

    /** The set for {@code ops}, a combination of {@code SelectionKey.OP_*} bits. */
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

    /** The {@code SelectionKey.OP_*} bits. */
    public int intValue() {
        return ops;
    }

    public boolean contains(NioIoOps other) {
        return (ops & other.ops) == other.ops;
    }

    public NioIoOps with(NioIoOps other) {
        return CACHE[ops | other.ops];
    }

    public NioIoOps without(NioIoOps other) {
        return CACHE[ops & ~other.ops];
    }

    public boolean isReadable() {
        return (ops & SelectionKey.OP_READ) != 0;
    }

    public boolean isWritable() {
        return (ops & SelectionKey.OP_WRITE) != 0;
    }

    public boolean isConnectable() {
        return (ops & SelectionKey.OP_CONNECT) != 0;
    }

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
