package io.rill.handler.codec.http.internal;

import io.rill.handler.codec.http.HttpHeaderNames;
import io.rill.handler.codec.http.HttpHeaders;

/**
 * Adds to {@code Vary} without losing what it said (docs/security-cases.md, case H1-19: replacing
 * it let caches mix users up).
 */
public final class Vary {

    private Vary() {
    }

    /** Appends {@code token} to {@code Vary}, unless it (or {@code *}, which covers everything) is there already. */
    public static void append(HttpHeaders h, String token) {
        String vary = h.get(HttpHeaderNames.VARY);
        if (vary == null) {
            h.set(HttpHeaderNames.VARY, token);
        } else if (!h.containsValue(HttpHeaderNames.VARY, token, true) && !h.containsValue(HttpHeaderNames.VARY, "*", false)) {
            h.set(HttpHeaderNames.VARY, vary + ", " + token);
        }
    }
}
