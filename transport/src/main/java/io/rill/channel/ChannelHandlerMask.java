package io.rill.channel;

import java.net.SocketAddress;

import io.rill.util.concurrent.Promise;

/**
 * Which {@link ChannelHandler} methods a handler class overrides, one bit per event or
 * operation, computed once per class.
 *
 * <p>A method is skippable iff it still resolves to the default declared by
 * {@code ChannelHandler} itself: such a default only forwards, so the pipeline may walk past
 * the handler instead of calling it. Anything else (an override in the class, a superclass or
 * a sub-interface) keeps its bit. {@code handlerAdded}/{@code handlerRemoved} are not masked:
 * they run once per handler, never on the hot path.
 */
final class ChannelHandlerMask {

    static final int REGISTERED = 1;
    static final int UNREGISTERED = 1 << 1;
    static final int ACTIVE = 1 << 2;
    static final int INACTIVE = 1 << 3;
    static final int CHANNEL_READ = 1 << 4;
    static final int READ_COMPLETE = 1 << 5;
    static final int USER_EVENT = 1 << 6;
    static final int WRITABILITY_CHANGED = 1 << 7;
    static final int EXCEPTION_CAUGHT = 1 << 8;

    static final int BIND = 1 << 9;
    static final int CONNECT = 1 << 10;
    static final int DISCONNECT = 1 << 11;
    static final int CLOSE = 1 << 12;
    static final int REGISTER = 1 << 13;
    static final int DEREGISTER = 1 << 14;
    static final int READ = 1 << 15;
    static final int WRITE = 1 << 16;
    static final int FLUSH = 1 << 17;

    static final int ALL_INBOUND = (1 << 9) - 1;
    static final int ALL_OUTBOUND = ((1 << 18) - 1) & ~ALL_INBOUND;

    private static final ClassValue<Integer> MASKS = new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> type) {
            return compute(type);
        }
    };

    private ChannelHandlerMask() {
    }

    /** The mask of {@code handlerType}; cached, so the reflective scan runs once per class. */
    static int of(Class<? extends ChannelHandler> handlerType) {
        return MASKS.get(handlerType);
    }

    private static int compute(Class<?> type) {
        Class<?> ctx = ChannelHandlerContext.class;
        int mask = 0;
        mask |= bitIfOverridden(type, REGISTERED, "channelRegistered", ctx);
        mask |= bitIfOverridden(type, UNREGISTERED, "channelUnregistered", ctx);
        mask |= bitIfOverridden(type, ACTIVE, "channelActive", ctx);
        mask |= bitIfOverridden(type, INACTIVE, "channelInactive", ctx);
        mask |= bitIfOverridden(type, CHANNEL_READ, "channelRead", ctx, Object.class);
        mask |= bitIfOverridden(type, READ_COMPLETE, "channelReadComplete", ctx);
        mask |= bitIfOverridden(type, USER_EVENT, "userEventTriggered", ctx, Object.class);
        mask |= bitIfOverridden(type, WRITABILITY_CHANGED, "channelWritabilityChanged", ctx);
        mask |= bitIfOverridden(type, EXCEPTION_CAUGHT, "exceptionCaught", ctx, Throwable.class);
        mask |= bitIfOverridden(type, BIND, "bind", ctx, SocketAddress.class, Promise.class);
        mask |= bitIfOverridden(type, CONNECT, "connect", ctx, SocketAddress.class, SocketAddress.class,
                Promise.class);
        mask |= bitIfOverridden(type, DISCONNECT, "disconnect", ctx, Promise.class);
        mask |= bitIfOverridden(type, CLOSE, "close", ctx, Promise.class);
        mask |= bitIfOverridden(type, REGISTER, "register", ctx, Promise.class);
        mask |= bitIfOverridden(type, DEREGISTER, "deregister", ctx, Promise.class);
        mask |= bitIfOverridden(type, READ, "read", ctx);
        mask |= bitIfOverridden(type, WRITE, "write", ctx, Object.class, Promise.class);
        mask |= bitIfOverridden(type, FLUSH, "flush", ctx);
        return mask;
    }

    private static int bitIfOverridden(Class<?> type, int bit, String name, Class<?>... parameterTypes) {
        try {
            // getMethod resolves like a virtual call would: the most specific public declaration wins.
            return type.getMethod(name, parameterTypes).getDeclaringClass() == ChannelHandler.class ? 0 : bit;
        } catch (NoSuchMethodException | SecurityException e) {
            // Cannot tell: keep the bit, calling a forwarding method is merely slower.
            return bit;
        }
    }
}
