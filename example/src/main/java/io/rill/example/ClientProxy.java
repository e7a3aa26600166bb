package io.rill.example;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;

import io.rill.bootstrap.Bootstrap;
import io.rill.channel.Channel;
import io.rill.handler.proxy.HttpProxyHandler;
import io.rill.handler.proxy.ProxyHandler;
import io.rill.handler.proxy.Socks5ProxyHandler;

/**
 * The client examples' {@code --proxy socks5://[user:pass@]H:P | http://[user:pass@]H:P}: a proxy
 * handler first in the pipeline, and a connect that leaves the destination's name for the proxy
 * to resolve (the channel is registered, then connected to an unresolved address, which
 * {@code Bootstrap.connect(host, port)} would resolve locally).
 */
final class ClientProxy {

    static final ExampleOption PROXY = ExampleOption.text("proxy", "URL", null,
            "connect through a proxy: socks5://[user:pass@]H:P or http://[user:pass@]H:P (names resolved by the proxy)");

    private ClientProxy() {
    }

    /** A fresh handler for {@code --proxy}, or null without it. */
    static ProxyHandler handler(ExampleOptions options) {
        String proxy = options.text(PROXY);
        if (proxy == null) {
            return null;
        }
        URI uri;
        try {
            uri = new URI(proxy);
        } catch (URISyntaxException e) {
            throw new ExampleOptions.UsageException("--proxy '" + proxy + "': " + e.getMessage());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (uri.getHost() == null || uri.getPort() < 0 || !(scheme.equals("socks5") || scheme.equals("http"))) {
            throw new ExampleOptions.UsageException("--proxy must be socks5://H:P or http://H:P, not '" + proxy + "'");
        }
        InetSocketAddress address = new InetSocketAddress(uri.getHost(), uri.getPort());
        String user = null;
        String password = null;
        if (uri.getUserInfo() != null) {
            int colon = uri.getUserInfo().indexOf(':');
            if (colon < 0) {
                throw new ExampleOptions.UsageException("--proxy: user info must be user:password");
            }
            user = uri.getUserInfo().substring(0, colon);
            password = uri.getUserInfo().substring(colon + 1);
        }
        return scheme.equals("socks5") ? new Socks5ProxyHandler(address, user, password)
                : new HttpProxyHandler(address, user, password);
    }

    /**
     * Connects {@code bootstrap} to {@code host:port}: directly when {@code proxied} is false, else
     * through the proxy handler its initializer added, sending the name unresolved.
     */
    static Channel connect(Bootstrap bootstrap, boolean proxied, String host, int port) throws InterruptedException {
        if (!proxied) {
            return bootstrap.connect(host, port).sync().getNow();
        }
        Channel ch = bootstrap.register().sync().getNow();
        ch.connect(InetSocketAddress.createUnresolved(host, port)).addListener(f -> {
            if (!f.isSuccess()) {
                ch.close();
            }
        }).sync();
        return ch;
    }
}
