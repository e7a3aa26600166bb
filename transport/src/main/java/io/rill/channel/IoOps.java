package io.rill.channel;

/** A set of I/O operations of some transport (interest or readiness), as the transport encodes it. */
public interface IoOps {

    /** {@return the transport's bit set} */
    long value();
}
