package io.rill.bootstrap;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;

import io.rill.channel.Channel;
import io.rill.channel.EventLoop;
import io.rill.channel.EventLoopGroup;

/**
 * Channel factories from a class's public constructor, for {@code .channel(NioSocketChannel.class)}.
 * The constructor is looked up once, when the bootstrap is configured, so a class without the
 * right one fails there with a message rather than at the first connect.
 */
final class ReflectiveFactories {

    private ReflectiveFactories() {
    }

    static <C extends Channel> ChannelFactory<C> client(Class<C> type) {
        Constructor<C> constructor = constructor(type, EventLoop.class);
        return loop -> newInstance(constructor, loop);
    }

    static <C extends Channel> ServerChannelFactory<C> server(Class<C> type) {
        Constructor<C> constructor = constructor(type, EventLoop.class, EventLoopGroup.class);
        return (loop, childGroup) -> newInstance(constructor, loop, childGroup);
    }

    private static <C> Constructor<C> constructor(Class<C> type, Class<?>... parameters) {
        if (type == null) {
            throw new NullPointerException("channel class");
        }
        try {
            return type.getConstructor(parameters);
        } catch (NoSuchMethodException e) {
            StringBuilder signature = new StringBuilder();
            for (Class<?> p : parameters) {
                signature.append(signature.length() == 0 ? "" : ", ").append(p.getSimpleName());
            }
            throw new IllegalArgumentException(type.getName() + " has no public constructor (" + signature
                    + "); pass a factory to channelFactory(...) instead", e);
        }
    }

    private static <C> C newInstance(Constructor<C> constructor, Object... args) throws Exception {
        try {
            return constructor.newInstance(args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception ex) {
                throw ex;
            }
            throw e;
        }
    }
}
