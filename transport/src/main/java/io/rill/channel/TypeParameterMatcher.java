package io.rill.channel;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.Arrays;

/**
 * Finds the class a subclass binds a generic type parameter to, e.g. {@code String} for
 * {@code class Echo extends SimpleChannelInboundHandler<String>}, by walking the declared
 * generic superclasses (public reflection on the user's own classes, nothing of the JDK's).
 * A parameter left open ({@code class Base<T> extends SimpleChannelInboundHandler<T>}) cannot
 * be resolved: the caller must pass the class explicitly. Public for the codec base classes,
 * which resolve their message types the same way.
 */
public final class TypeParameterMatcher {

    private TypeParameterMatcher() {
    }

    /**
     * The raw class that {@code type} (a subclass of {@code declaring}) binds {@code declaring}'s
     * type parameter {@code name} to.
     *
     * @param type the subclass
     * @param declaring the generic class
     * @param name the type parameter's name
     * @return the raw class
     * @throws IllegalArgumentException if {@code type} does not extend {@code declaring}
     * @throws IllegalStateException if the parameter cannot be resolved (an unresolved type variable)
     */
    public static Class<?> find(Class<?> type, Class<?> declaring, String name) {
        TypeVariable<?>[] params = declaring.getTypeParameters();
        int index = indexOf(params, name, declaring);
        // Walk down from `type` to `declaring`, remembering each superclass's type arguments.
        Class<?> current = type;
        Type[] argsOfDeclaring = null;
        java.util.ArrayDeque<Class<?>> chain = new java.util.ArrayDeque<>();
        while (current != null && current != declaring) {
            chain.push(current);
            current = current.getSuperclass();
        }
        if (current == null) {
            throw new IllegalArgumentException(type.getName() + " does not extend " + declaring.getName());
        }
        // chain top = direct subclass of declaring; resolve downwards while the argument is a variable.
        Class<?> sub = chain.pop();
        Type arg = argumentOf(sub, index);
        while (arg instanceof TypeVariable<?> variable) {
            if (chain.isEmpty() || !(variable.getGenericDeclaration() instanceof Class<?> owner)) {
                return unresolvable(type, declaring, name);
            }
            int i = indexOf(owner.getTypeParameters(), variable.getName(), owner);
            sub = chain.pop();
            arg = argumentOf(sub, i);
        }
        Class<?> raw = rawClass(arg);
        return raw != null ? raw : unresolvable(type, declaring, name);
    }

    private static Type argumentOf(Class<?> sub, int index) {
        Type superType = sub.getGenericSuperclass();
        if (superType instanceof ParameterizedType parameterized) {
            return parameterized.getActualTypeArguments()[index];
        }
        return Object.class; // raw supertype: everything matches
    }

    private static Class<?> rawClass(Type t) {
        if (t instanceof Class<?> c) {
            return c;
        }
        if (t instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        if (t instanceof GenericArrayType array) {
            Class<?> component = rawClass(array.getGenericComponentType());
            return component == null ? null : component.arrayType();
        }
        return null;
    }

    private static int indexOf(TypeVariable<?>[] params, String name, Class<?> declaring) {
        for (int i = 0; i < params.length; i++) {
            if (params[i].getName().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no type parameter " + name + " on " + declaring.getName()
                + Arrays.toString(params));
    }

    private static Class<?> unresolvable(Class<?> type, Class<?> declaring, String name) {
        throw new IllegalStateException("cannot tell which class " + type.getName() + " binds "
                + declaring.getSimpleName() + "<" + name + "> to; pass the message class to the constructor");
    }
}
