package io.rill.handler.codec.http.cors;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import io.rill.handler.codec.http.HttpMethod;

/**
 * What a {@link CorsHandler} allows (Fetch standard, "CORS protocol"): which origins, which
 * methods and request headers in a preflight, which response headers a script may read, whether
 * credentials may be sent, and how long a preflight answer may be cached. Immutable; built with
 * {@link #forAnyOrigin()} or {@link #forOrigins(String...)}:
 * <pre>{@code
 * CorsConfig cors = CorsConfig.forOrigins("https://app.example").allowCredentials()
 *         .allowedRequestMethods(HttpMethod.GET, HttpMethod.PUT).allowedRequestHeaders("content-type")
 *         .maxAge(600).build();
 * }</pre>
 */
public final class CorsConfig {

    private final boolean anyOrigin;
    private final Set<String> origins;
    private final boolean allowNullOrigin;
    private final boolean allowCredentials;
    private final Set<HttpMethod> allowedMethods;
    /** Lower case, for comparing with what a preflight asks. */
    private final Set<String> allowedHeaders;
    private final Set<String> exposedHeaders;
    private final long maxAge;
    private final boolean shortCircuit;

    private CorsConfig(Builder b) {
        this.anyOrigin = b.anyOrigin;
        this.origins = Collections.unmodifiableSet(new LinkedHashSet<>(b.origins));
        this.allowNullOrigin = b.allowNullOrigin;
        this.allowCredentials = b.allowCredentials;
        this.allowedMethods = Collections.unmodifiableSet(new LinkedHashSet<>(b.allowedMethods));
        this.allowedHeaders = Collections.unmodifiableSet(new LinkedHashSet<>(b.allowedHeaders));
        this.exposedHeaders = Collections.unmodifiableSet(new LinkedHashSet<>(b.exposedHeaders));
        this.maxAge = b.maxAge;
        this.shortCircuit = b.shortCircuit;
    }

    /**
     * Any origin may read responses ({@code Access-Control-Allow-Origin: *}, or the origin itself with
     * credentials).
     *
     * @return a new builder
     */
    public static Builder forAnyOrigin() {
        return new Builder(true);
    }

    /**
     * Only these origins ({@code https://host[:port]}, compared exactly) may read responses.
     *
     * @param origins the allowed origins
     * @return a new builder
     */
    public static Builder forOrigins(String... origins) {
        Builder b = new Builder(false);
        b.origins.addAll(Arrays.asList(origins));
        return b;
    }

    /**
     * Whether any origin may read responses.
     *
     * @return true for a configuration made by {@link #forAnyOrigin()}
     */
    public boolean isAnyOrigin() {
        return anyOrigin;
    }

    /**
     * The origins allowed, when not any.
     *
     * @return an unmodifiable set, empty for {@link #forAnyOrigin()}
     */
    public Set<String> origins() {
        return origins;
    }

    /**
     * Whether {@code origin} (the request's {@code Origin} value) may read responses.
     *
     * @param origin the request's {@code Origin} value
     * @return true if it may read responses
     */
    public boolean isOriginAllowed(String origin) {
        if (origin.equals("null")) {
            return allowNullOrigin;
        }
        return anyOrigin || origins.contains(origin);
    }

    /**
     * Whether requests may carry cookies and credentials.
     *
     * @return true if {@link Builder#allowCredentials()} was called
     */
    public boolean isCredentialsAllowed() {
        return allowCredentials;
    }

    /**
     * The methods a preflight may ask for.
     *
     * @return an unmodifiable set
     */
    public Set<HttpMethod> allowedRequestMethods() {
        return allowedMethods;
    }

    /**
     * The request headers a preflight may ask for, besides the safelisted ones.
     *
     * @return an unmodifiable set of lower-case names
     */
    public Set<String> allowedRequestHeaders() {
        return allowedHeaders;
    }

    /**
     * The response headers scripts may read.
     *
     * @return an unmodifiable set
     */
    public Set<String> exposedHeaders() {
        return exposedHeaders;
    }

    /**
     * Seconds a preflight answer may be cached; 0 to send no {@code Access-Control-Max-Age}.
     *
     * @return the lifetime in seconds
     */
    public long maxAge() {
        return maxAge;
    }

    /**
     * Whether requests from origins not allowed are answered 403 instead of passed on without CORS headers.
     *
     * @return true if refused requests are answered 403
     */
    public boolean isShortCircuit() {
        return shortCircuit;
    }

    /** Builds a {@link CorsConfig}. Defaults: methods GET, HEAD and POST; no extra headers; no credentials. */
    public static final class Builder {
        private final boolean anyOrigin;
        private final Set<String> origins = new LinkedHashSet<>();
        private boolean allowNullOrigin;
        private boolean allowCredentials;
        private final Set<HttpMethod> allowedMethods = new LinkedHashSet<>(
                Arrays.asList(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.POST));
        private final Set<String> allowedHeaders = new LinkedHashSet<>();
        private final Set<String> exposedHeaders = new LinkedHashSet<>();
        private long maxAge;
        private boolean shortCircuit;

        private Builder(boolean anyOrigin) {
            this.anyOrigin = anyOrigin;
        }

        /**
         * Allows the {@code null} origin (sandboxed frames, file: pages); off by default since anything can
         * claim it.
         *
         * @return this builder
         */
        public Builder allowNullOrigin() {
            allowNullOrigin = true;
            return this;
        }

        /**
         * Lets requests carry cookies and credentials ({@code Access-Control-Allow-Credentials: true}).
         *
         * @return this builder
         */
        public Builder allowCredentials() {
            allowCredentials = true;
            return this;
        }

        /**
         * Replaces the methods a preflight may ask for.
         *
         * @param methods the methods; replaces the default GET, HEAD and POST
         * @return this builder
         */
        public Builder allowedRequestMethods(HttpMethod... methods) {
            allowedMethods.clear();
            allowedMethods.addAll(Arrays.asList(methods));
            return this;
        }

        /**
         * Request headers a preflight may ask for (besides the CORS-safelisted ones, always allowed).
         *
         * @param headers header names
         * @return this builder
         */
        public Builder allowedRequestHeaders(String... headers) {
            allowedHeaders.addAll(Arrays.stream(headers).map(h -> h.toLowerCase(Locale.ROOT)).collect(Collectors.toList()));
            return this;
        }

        /**
         * Response headers scripts may read ({@code Access-Control-Expose-Headers}).
         *
         * @param headers header names
         * @return this builder
         */
        public Builder exposeHeaders(String... headers) {
            exposedHeaders.addAll(Arrays.asList(headers));
            return this;
        }

        /**
         * How long browsers may cache a preflight answer ({@code Access-Control-Max-Age}).
         *
         * @param seconds the lifetime; 0 to send no such header
         * @return this builder
         * @throws IllegalArgumentException if {@code seconds} is negative
         */
        public Builder maxAge(long seconds) {
            if (seconds < 0) {
                throw new IllegalArgumentException("maxAge: " + seconds);
            }
            maxAge = seconds;
            return this;
        }

        /**
         * Answers requests from origins not allowed with 403, instead of leaving the browser to block the
         * response.
         *
         * @return this builder
         */
        public Builder shortCircuit() {
            shortCircuit = true;
            return this;
        }

        /**
         * The configuration, immutable and safe to share between channels.
         *
         * @return a new configuration
         * @throws IllegalArgumentException if a header name is not a token, or an origin holds a space, a comma
         *                                  or a control character
         */
        public CorsConfig build() {
            for (String h : allowedHeaders.toArray(new String[0])) {
                checkToken(h);
            }
            for (String h : exposedHeaders) {
                checkToken(h);
            }
            for (String o : origins) {
                if (o.chars().anyMatch(c -> c <= ' ' || c == 0x7f || c == ',')) {
                    throw new IllegalArgumentException("origin with a space, comma or control character: \"" + o + '"');
                }
            }
            return new CorsConfig(this);
        }

        private static void checkToken(String header) {
            if (header.isEmpty() || !header.chars().allMatch(c -> c > ' ' && c < 0x7f && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0)) {
                throw new IllegalArgumentException("not a header name: \"" + header + '"');
            }
        }
    }
}
