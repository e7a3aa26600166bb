package io.rill.channel;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.HashSet;
import java.util.Set;

/**
 * Enforces {@link ChannelHandler.Sharable}: an instance of an unmarked class may hold only one
 * pipeline position at a time. Handlers are an interface, so the "in use" flag cannot live in
 * the handler; it lives here, in a weak identity set, so a pipeline dropped without removing
 * its handlers pins nothing. Touched only when handlers are added or removed.
 */
final class SharableCheck {

    private static final ClassValue<Boolean> SHARABLE = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return type.isAnnotationPresent(ChannelHandler.Sharable.class);
        }
    };

    /** Non-sharable handlers currently in some pipeline; guarded by itself. */
    private static final Set<IdentityRef> IN_USE = new HashSet<>();
    private static final ReferenceQueue<ChannelHandler> COLLECTED = new ReferenceQueue<>();

    private SharableCheck() {
    }

    static boolean isSharable(Class<?> handlerType) {
        return SHARABLE.get(handlerType);
    }

    /** Claims {@code handler} for one pipeline position; throws if it is not sharable and already placed. */
    static void claim(ChannelHandler handler) {
        if (isSharable(handler.getClass())) {
            return;
        }
        synchronized (IN_USE) {
            expunge();
            if (!IN_USE.add(new IdentityRef(handler, COLLECTED))) {
                throw new ChannelPipelineException(handler.getClass().getName()
                        + " is not a @Sharable handler, so the same instance cannot be added twice"
                        + " or to a second pipeline; create one instance per channel or mark the class @Sharable");
            }
        }
    }

    /** Gives the position back: the handler was removed (or never made it in). */
    static void release(ChannelHandler handler) {
        if (isSharable(handler.getClass())) {
            return;
        }
        synchronized (IN_USE) {
            IN_USE.remove(new IdentityRef(handler, null));
            expunge();
        }
    }

    private static void expunge() {
        for (Object ref; (ref = COLLECTED.poll()) != null; ) {
            IN_USE.remove(ref);
        }
    }

    /** A weak reference equal to another exactly when both point at the same live object. */
    private static final class IdentityRef extends WeakReference<ChannelHandler> {
        private final int hash;

        IdentityRef(ChannelHandler referent, ReferenceQueue<ChannelHandler> queue) {
            super(referent, queue);
            hash = System.identityHashCode(referent);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof IdentityRef other)) {
                return false;
            }
            Object mine = get();
            return mine != null && mine == other.get();
        }
    }
}
