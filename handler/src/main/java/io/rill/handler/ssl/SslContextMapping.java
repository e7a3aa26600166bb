package io.rill.handler.ssl;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Host name to {@link SslContext}, for {@link SniHandler}: exact names first, then a wildcard
 * {@code *.example.com} matching exactly one more label (RFC 6125 §6.4.3), then the default.
 * The default serves clients that sent no server name and names nothing else matches; it is
 * never used because a hello could not be read (SniHandler fails closed then).
 */
public final class SslContextMapping implements Function<String, SslContext> {

    private final SslContext defaultContext;
    private final Map<String, SslContext> exact;
    /** Keyed by the suffix after "*.": "example.com". */
    private final Map<String, SslContext> wildcard;

    private SslContextMapping(Builder b) {
        this.defaultContext = b.defaultContext;
        this.exact = Map.copyOf(b.exact);
        this.wildcard = Map.copyOf(b.wildcard);
    }

    /**
     * A mapping whose unmatched names get {@code defaultContext}.
     *
     * @param defaultContext the context for clients that send no name or an unknown one; not null
     * @return a new builder
     * @throws NullPointerException if {@code defaultContext} is null
     */
    public static Builder builder(SslContext defaultContext) {
        if (defaultContext == null) {
            throw new NullPointerException("defaultContext");
        }
        return new Builder(defaultContext);
    }

    @Override
    public SslContext apply(String hostname) {
        if (hostname == null) {
            return defaultContext;
        }
        String name = hostname.toLowerCase(Locale.ROOT);
        SslContext ctx = exact.get(name);
        if (ctx != null) {
            return ctx;
        }
        int dot = name.indexOf('.');
        if (dot > 0) {
            ctx = wildcard.get(name.substring(dot + 1));
            if (ctx != null) {
                return ctx;
            }
        }
        return defaultContext;
    }

    /** Collects names; {@link #build()} freezes them. */
    public static final class Builder {
        private final SslContext defaultContext;
        private final Map<String, SslContext> exact = new HashMap<>();
        private final Map<String, SslContext> wildcard = new HashMap<>();

        private Builder(SslContext defaultContext) {
            this.defaultContext = defaultContext;
        }

        /**
         * Maps {@code hostname} ("a.example.com" or "*.example.com") to {@code context}.
         *
         * @param hostname a host name, or a {@code *.} wildcard for one label; matched without regard to case
         * @param context  the context for that name
         * @return this builder
         * @throws IllegalArgumentException if {@code *} appears anywhere but a leading {@code *.}
         */
        public Builder add(String hostname, SslContext context) {
            String name = hostname.toLowerCase(Locale.ROOT);
            if (name.startsWith("*.")) {
                wildcard.put(name.substring(2), context);
            } else if (name.contains("*")) {
                throw new IllegalArgumentException("only a leading '*.' wildcard is supported: " + hostname);
            } else {
                exact.put(name, context);
            }
            return this;
        }

        /**
         * The mapping of the names added so far; exact names win over wildcards.
         *
         * @return a new, immutable mapping, safe to share between channels and threads
         */
        public SslContextMapping build() {
            return new SslContextMapping(this);
        }
    }
}
