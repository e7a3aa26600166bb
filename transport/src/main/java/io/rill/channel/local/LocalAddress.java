package io.rill.channel.local;

import java.net.SocketAddress;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The address of an in-VM {@link LocalServerChannel} or {@link LocalChannel}: just a name.
 * Binding to {@link #ANY} picks a fresh name, the in-VM analogue of port 0.
 */
public final class LocalAddress extends SocketAddress implements Comparable<LocalAddress> {

    private static final long serialVersionUID = 1L;

    /** Bind to this to get a generated, unused address. */
    public static final LocalAddress ANY = new LocalAddress("ANY");

    /** Source of generated names; never reused within the VM, so they cannot collide with each other. */
    private static final AtomicLong NEXT_EPHEMERAL = new AtomicLong();

    /** Non-empty, trimmed; the whole identity of the address. */
    private final String id;

    /**
     * The address named {@code id} (leading and trailing blanks are dropped).
     *
     * @param id the name
     */
    public LocalAddress(String id) {
        String trimmed = Objects.requireNonNull(id, "id").trim();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("empty local address id");
        }
        this.id = trimmed;
    }

    /** A generated address, distinct from every other generated one. */
    static LocalAddress ephemeral() {
        return new LocalAddress("ephemeral-" + Long.toHexString(NEXT_EPHEMERAL.incrementAndGet()));
    }

    /** {@return the address's name} */
    public String id() {
        return id;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LocalAddress other && id.equals(other.id);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public int compareTo(LocalAddress o) {
        return id.compareTo(o.id);
    }

    @Override
    public String toString() {
        return "local:" + id;
    }
}
