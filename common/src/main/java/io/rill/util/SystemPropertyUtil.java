package io.rill.util;

import java.util.Locale;

/**
 * Reads system properties with a default, for {@link RillProperties}. A value that does not
 * parse is reported once as a warning and replaced by the default, so a typo in a launch script
 * degrades to the documented behaviour instead of failing class initialisation. A security
 * manager that forbids the read is treated like an absent property.
 */
public final class SystemPropertyUtil {

    private static final InternalLogger logger = InternalLogger.get(SystemPropertyUtil.class);

    private SystemPropertyUtil() {
    }

    /**
     * {@return the property's value, or null if unset or unreadable}
     *
     * @param key the property name
     */
    public static String get(String key) {
        return get(key, null);
    }

    /**
     * {@return the property's value with surrounding whitespace removed, or {@code def} if unset or unreadable}
     *
     * @param key the property name
     * @param def the default
     */
    public static String get(String key, String def) {
        if (key.isEmpty()) {
            throw new IllegalArgumentException("empty property key");
        }
        String value;
        try {
            value = System.getProperty(key);
        } catch (SecurityException e) {
            logger.warn("Unable to read system property '{}', using default '{}'", key, def, e);
            return def;
        }
        return value == null ? def : value.trim();
    }

    /**
     * {@return the property as a decimal {@code int}, or {@code def} when unset or not a number (logged)}
     *
     * @param key the property name
     * @param def the default
     */
    public static int getInt(String key, int def) {
        String value = get(key);
        if (value == null) {
            return def;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            return invalid(key, value, "an int", def);
        }
    }

    /**
     * {@return the property as a decimal {@code long}, or {@code def} when unset or not a number (logged)}
     *
     * @param key the property name
     * @param def the default
     */
    public static long getLong(String key, long def) {
        String value = get(key);
        if (value == null) {
            return def;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return invalid(key, value, "a long", def);
        }
    }

    /**
     * {@code true/yes/1} and {@code false/no/0}, ignoring case. A property given without a value
     * ({@code -Dkey}) is true: that is what someone typing a bare flag means.
     *
     * @param key the property name
     * @param def the value when unset or not one of the accepted words
     * @return the property as a boolean
     */
    public static boolean getBoolean(String key, boolean def) {
        String value = get(key);
        if (value == null) {
            return def;
        }
        switch (value.toLowerCase(Locale.ROOT)) {
            case "":
            case "true":
            case "yes":
            case "1":
                return true;
            case "false":
            case "no":
            case "0":
                return false;
            default:
                return invalid(key, value, "a boolean", def);
        }
    }

    private static <V> V invalid(String key, String value, String expected, V def) {
        logger.warn("System property '{}' is '{}', which is not {}; using default {}", key, value, expected, def);
        return def;
    }
}
