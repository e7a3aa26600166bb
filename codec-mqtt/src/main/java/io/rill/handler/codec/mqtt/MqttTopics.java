package io.rill.handler.codec.mqtt;

/**
 * Topic names and topic filters (MQTT 5.0 section 4.7): what each may contain, and which names a
 * filter matches. Names carry no wildcard; in a filter {@code +} fills a whole level and {@code #}
 * is the whole last level. A filter starting with a wildcard does not match names starting with
 * {@code $} (section 4.7.2), so {@code #} does not see {@code $SYS/...}.
 */
public final class MqttTopics {

    private static final String SHARE_PREFIX = "$share/";

    private MqttTopics() {
    }

    /**
     * {@return null if {@code name} is a valid topic name, else why not}
     *
     * @param name a topic name, non-empty, without {@code +} or {@code #}
     */
    public static String checkName(String name) {
        if (name.isEmpty()) {
            return "topic name is empty";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '+' || c == '#') {
                return "topic name '" + name + "' contains the wildcard '" + c + "'";
            }
        }
        return null;
    }

    /**
     * {@return null if {@code filter} is a valid topic filter, else why not}; a shared subscription
     * ({@code $share/NAME/FILTER}) needs a share name without wildcards or {@code /} and a valid filter.
     *
     * @param filter a topic filter
     */
    public static String checkFilter(String filter) {
        if (filter.isEmpty()) {
            return "topic filter is empty";
        }
        String plain = filter;
        if (filter.startsWith(SHARE_PREFIX)) {
            int slash = filter.indexOf('/', SHARE_PREFIX.length());
            String shareName = slash < 0 ? filter.substring(SHARE_PREFIX.length()) : filter.substring(SHARE_PREFIX.length(), slash);
            if (slash < 0 || shareName.isEmpty() || shareName.indexOf('+') >= 0 || shareName.indexOf('#') >= 0) {
                return "shared subscription '" + filter + "' needs $share/NAME/FILTER with a plain NAME";
            }
            plain = filter.substring(slash + 1);
            if (plain.isEmpty()) {
                return "shared subscription '" + filter + "' has an empty filter";
            }
        }
        for (int i = 0; i < plain.length(); i++) {
            char c = plain.charAt(i);
            boolean levelStart = i == 0 || plain.charAt(i - 1) == '/';
            boolean levelEnd = i == plain.length() - 1 || plain.charAt(i + 1) == '/';
            if (c == '+' && !(levelStart && levelEnd)) {
                return "'+' must fill a whole level in '" + filter + "'";
            }
            if (c == '#' && !(levelStart && i == plain.length() - 1)) {
                return "'#' must be the whole last level in '" + filter + "'";
            }
        }
        return null;
    }

    /**
     * {@return true if {@code filter} is a shared subscription, {@code $share/NAME/FILTER}} (MQTT 5.0
     * section 4.8.2): each message matching FILTER goes to one session of those sharing NAME.
     *
     * @param filter a topic filter
     */
    public static boolean isShared(String filter) {
        return filter.startsWith(SHARE_PREFIX);
    }

    /**
     * {@return the FILTER of the valid shared subscription {@code $share/NAME/FILTER}}, the part
     * {@link #matches} takes
     *
     * @param sharedFilter a valid shared subscription, as {@link #checkFilter} accepts
     * @throws IllegalArgumentException if {@code sharedFilter} is not a shared subscription
     */
    public static String sharedFilter(String sharedFilter) {
        int slash = isShared(sharedFilter) ? sharedFilter.indexOf('/', SHARE_PREFIX.length()) : -1;
        if (slash < 0) {
            throw new IllegalArgumentException("not a shared subscription: '" + sharedFilter + "'");
        }
        return sharedFilter.substring(slash + 1);
    }

    /**
     * {@return true if the valid filter {@code filter} matches the valid name {@code name}}
     *
     * @param filter a topic filter (not a shared one)
     * @param name a topic name
     */
    public static boolean matches(String filter, String name) {
        if (!name.isEmpty() && name.charAt(0) == '$' && !filter.isEmpty() && (filter.charAt(0) == '+' || filter.charAt(0) == '#')) {
            return false;
        }
        int f = 0;
        int n = 0;
        while (f < filter.length()) {
            char c = filter.charAt(f);
            if (c == '#') {
                return true; // also matches the parent level: "a/#" matches "a"
            }
            if (c == '+') {
                while (n < name.length() && name.charAt(n) != '/') {
                    n++;
                }
                f++;
            } else {
                int fEnd = filter.indexOf('/', f);
                int nEnd = name.indexOf('/', n);
                fEnd = fEnd < 0 ? filter.length() : fEnd;
                nEnd = nEnd < 0 ? name.length() : nEnd;
                if (n > name.length() || fEnd - f != nEnd - n || !filter.regionMatches(f, name, n, fEnd - f)) {
                    return false;
                }
                f = fEnd;
                n = nEnd;
            }
            // Both at a level end: step over the '/' of each, or end together.
            if (f == filter.length()) {
                return n == name.length();
            }
            // f is at '/'
            if (n == name.length()) {
                // name ended; only "/#" may follow in the filter
                return filter.length() - f == 2 && filter.charAt(f + 1) == '#';
            }
            f++;
            n++;
        }
        return n == name.length() && filter.isEmpty();
    }
}
