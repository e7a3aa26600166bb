package io.rill.handler.ssl;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import io.netty.internal.tcnative.SSL;
import io.netty.internal.tcnative.SSLContext;
import io.netty.internal.tcnative.SSLSession;
import io.netty.internal.tcnative.SSLSessionCache;

/**
 * The sessions a client context of the OPENSSL provider can resume, one per peer
 * ({@code host:port}): the last session (TLS 1.2 session id or ticket, TLS 1.3 ticket) BoringSSL
 * reported for a connection to that peer. A new engine for the same peer offers it
 * ({@code SSL_set_session}) and so resumes instead of doing a full handshake.
 *
 * <p>Bounded like the context's session cache: at most {@code SSL_CTX}'s session cache size
 * entries (0: no limit), least recently used evicted first, each usable for its session
 * timeout (0: no limit). Single-use sessions (TLS 1.3 tickets, RFC 8446 §C.4) are removed when
 * offered. The cache owns one reference to each {@code SSL_SESSION} it holds and frees it when
 * the entry goes, or when the context is freed ({@link #clear()}).
 *
 * <p>Engines of one context live on several event loops: every access is synchronized.
 */
final class OpenSslClientSessionCache implements SSLSessionCache {

    private final OpenSslNativeContext context;
    /** Peer key to session, in access order (eldest first). Guarded by {@code this}. */
    private final LinkedHashMap<String, Entry> sessions = new LinkedHashMap<>(16, 0.75f, true);

    /** One owned {@code SSL_SESSION*} and when it stops being offered (Long.MAX_VALUE: never). */
    private record Entry(long session, long expiresAtMillis) {
    }

    OpenSslClientSessionCache(OpenSslNativeContext context) {
        this.context = context;
    }

    /** The key of a peer worth caching for, or null (no host or port: nothing to match a later engine by). */
    private static String key(String host, int port) {
        return host == null || port <= 0 ? null : host + ':' + port;
    }

    /** BoringSSL made a session (after a handshake, or when a ticket arrived): keep it for the engine's peer. */
    @Override
    public boolean sessionCreated(long ssl, long session) {
        OpenSslEngine engine = context.engine(ssl);
        String key = engine == null ? null : key(engine.getPeerHost(), engine.getPeerPort());
        if (key == null) {
            return false; // BoringSSL keeps ownership and frees it
        }
        long timeoutSeconds = SSLContext.getSessionCacheTimeout(context.ctx);
        long expires = timeoutSeconds <= 0 ? Long.MAX_VALUE
                : System.currentTimeMillis() + Math.min(timeoutSeconds, Long.MAX_VALUE / 2000) * 1000;
        synchronized (this) {
            Entry old = sessions.put(key, new Entry(session, expires));
            if (old != null) {
                SSLSession.free(old.session);
            }
            long max = SSLContext.getSessionCacheSize(context.ctx);
            for (Iterator<Entry> it = sessions.values().iterator(); max > 0 && sessions.size() > max; ) {
                SSLSession.free(it.next().session);
                it.remove();
            }
        }
        return true;
    }

    /** Servers look sessions up by id; a client cache is never asked. */
    @Override
    public long getSession(long sslCtx, byte[] sessionId) {
        return -1;
    }

    /** Offers the cached session for {@code host:port}, if any is still valid, to a new client {@code SSL}. */
    void offer(long ssl, String host, int port) {
        String key = key(host, port);
        if (key == null) {
            return;
        }
        synchronized (this) {
            Entry entry = sessions.get(key);
            if (entry == null) {
                return;
            }
            boolean expired = System.currentTimeMillis() >= entry.expiresAtMillis;
            if (!expired) {
                SSL.setSession(ssl, entry.session); // the SSL takes a reference of its own
            }
            if (expired || SSLSession.shouldBeSingleUse(entry.session)) {
                sessions.remove(key);
                SSLSession.free(entry.session);
            }
        }
    }

    synchronized int size() {
        return sessions.size();
    }

    /** Frees every session; the context is going away. */
    synchronized void clear() {
        for (Map.Entry<String, Entry> e : sessions.entrySet()) {
            SSLSession.free(e.getValue().session);
        }
        sessions.clear();
    }
}
