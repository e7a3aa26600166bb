package io.rill.handler.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;

/**
 * What the proxy handlers check when they are built, before any connection: bad credentials and
 * settings fail at once, naming what was wrong. Their behaviour over connections is tested by the
 * socket suite ({@code SocketProxyTests} in testsuite) and against real proxies ({@code ProxyInteropTest}).
 */
class ProxyHandlerSettingsTest {

    private static final InetSocketAddress PROXY = new InetSocketAddress("127.0.0.1", 1080);

    @Test
    void credentialsAreCheckedWhenTheHandlerIsBuilt() {
        assertThrows(IllegalArgumentException.class, () -> new Socks5ProxyHandler(PROXY, "user", null));
        assertThrows(IllegalArgumentException.class, () -> new Socks5ProxyHandler(PROXY, "", "pw"));
        assertThrows(IllegalArgumentException.class, () -> new Socks5ProxyHandler(PROXY, "u", "p".repeat(256)));
        assertThrows(IllegalArgumentException.class, () -> new Socks4ProxyHandler(PROXY, "a\0b"));
        assertThrows(IllegalArgumentException.class, () -> new HttpProxyHandler(PROXY, "a:b", "pw"));
        assertThrows(IllegalArgumentException.class, () -> new HttpProxyHandler(PROXY, null, "pw"));
        assertThrows(NullPointerException.class, () -> new Socks5ProxyHandler(null));
    }

    @Test
    void settingsAreCheckedAndNamed() {
        Socks5ProxyHandler handler = new Socks5ProxyHandler(PROXY);
        assertEquals(ProxyHandler.DEFAULT_HANDSHAKE_TIMEOUT_MILLIS, handler.handshakeTimeoutMillis());
        assertEquals(10_000, handler.handshakeTimeoutMillis());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> handler.setHandshakeTimeoutMillis(-1));
        assertEquals("handshakeTimeoutMillis: -1 (expected: >= 0)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> handler.setMaxPendingWrites(0));
        assertEquals("maxPendingWrites: 0 (expected: >= 1)", e.getMessage());
        assertThrows(IllegalStateException.class, handler::connectFuture);
    }

    @Test
    void namesAndSchemes() {
        assertEquals("SOCKS5", new Socks5ProxyHandler(PROXY).protocol());
        assertEquals("password", new Socks5ProxyHandler(PROXY, "u", "p").authScheme());
        assertEquals("SOCKS4", new Socks4ProxyHandler(PROXY).protocol());
        assertEquals("basic", new HttpProxyHandler(PROXY, "u", "p").authScheme());
        assertEquals("none", new HttpProxyHandler(PROXY).authScheme());
        assertEquals("[0:0:0:0:0:0:0:1]:3128", ProxyHandler.format(new InetSocketAddress("::1", 3128)));
        assertEquals("proxy.example:8080", ProxyHandler.format(InetSocketAddress.createUnresolved("proxy.example", 8080)));
        Socks5ProxyHandler handler = new Socks5ProxyHandler(PROXY);
        assertSame(PROXY, handler.proxyAddress());
        assertNull(handler.destinationAddress());
        ProxyConnectException e = new ProxyRefusedException("m", "HTTP", PROXY);
        assertEquals("HTTP", e.protocol());
        assertSame(PROXY, e.proxyAddress());
    }
}
