package io.rill.resolver.dns;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;

import io.rill.bootstrap.ChannelFactory;
import io.rill.channel.Channel;
import io.rill.channel.EventLoop;
import io.rill.channel.nio.NioDatagramChannel;
import io.rill.channel.nio.NioSocketChannel;

/**
 * Configures a {@link DnsNameResolver}. Unset, the servers, search list, {@code ndots},
 * {@code timeout}, {@code attempts} and {@code rotate} come from {@code /etc/resolv.conf}, read
 * when {@link #build()} runs; what is set here wins over the file.
 */
public final class DnsNameResolverBuilder {

    final EventLoop loop;
    Path resolvConf = Path.of("/etc/resolv.conf");
    Path hostsFile = Path.of("/etc/hosts");
    Duration hostsRecheck = Duration.ofSeconds(1);
    List<InetSocketAddress> nameServers;
    List<String> searchDomains;
    Integer ndots;
    Duration queryTimeout;
    Integer attempts;
    Boolean rotate;
    ResolvedAddressTypes types = ResolvedAddressTypes.IPV4_PREFERRED;
    Duration minTtl = Duration.ZERO;
    /** A day: a longer TTL is more likely a mistake or an attack than a plan. */
    Duration maxTtl = Duration.ofDays(1);
    /** RFC 2308 §5 suggests one to three hours at most. */
    Duration maxNegativeTtl = Duration.ofHours(1);
    int maxCnameChain = 8;
    /** RFC 8305 §3 recommends 50 ms. */
    Duration resolutionDelay = Duration.ofMillis(50);
    int maxCacheEntries = 10_000;
    /** The DNS Flag Day 2020 size: no IP fragmentation on common paths. */
    int udpPayloadSize = 1232;
    ChannelFactory<? extends Channel> datagramChannels = NioDatagramChannel::new;
    ChannelFactory<? extends Channel> socketChannels = NioSocketChannel::new;
    SecureRandom random;
    LongSupplier clock = System::nanoTime;

    DnsNameResolverBuilder(EventLoop loop) {
        if (loop == null) {
            throw new NullPointerException("loop");
        }
        this.loop = loop;
    }

    /**
     * Reads the settings from {@code path} instead of {@code /etc/resolv.conf}.
     *
     * @param path the file
     * @return this builder
     */
    public DnsNameResolverBuilder resolvConf(Path path) {
        this.resolvConf = path;
        return this;
    }

    /**
     * Reads host names from {@code path} instead of {@code /etc/hosts}; null for no hosts file.
     *
     * @param path the file, or null
     * @return this builder
     */
    public DnsNameResolverBuilder hostsFile(Path path) {
        this.hostsFile = path;
        return this;
    }

    /**
     * How often the hosts file's modification time is looked at (1 s by default).
     *
     * @param interval zero to look at every lookup
     * @return this builder
     */
    public DnsNameResolverBuilder hostsRecheckInterval(Duration interval) {
        this.hostsRecheck = interval;
        return this;
    }

    /**
     * Asks these servers, in order, and no others.
     *
     * @param servers at least one
     * @return this builder
     */
    public DnsNameResolverBuilder nameServers(List<InetSocketAddress> servers) {
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("nameServers must not be empty");
        }
        this.nameServers = List.copyOf(servers);
        return this;
    }

    /**
     * The search list; empty for none.
     *
     * @param domains the domains, relative or absolute
     * @return this builder
     */
    public DnsNameResolverBuilder searchDomains(List<String> domains) {
        this.searchDomains = domains.stream().map(d -> d.endsWith(".") ? d : d + '.').toList();
        return this;
    }

    /**
     * resolv.conf's {@code ndots}.
     *
     * @param ndots 0 to 15
     * @return this builder
     */
    public DnsNameResolverBuilder ndots(int ndots) {
        if (ndots < 0 || ndots > 15) {
            throw new IllegalArgumentException("ndots must be 0 to 15: " + ndots);
        }
        this.ndots = ndots;
        return this;
    }

    /**
     * How long one try waits for its answer (resolv.conf's {@code timeout}).
     *
     * @param timeout positive
     * @return this builder
     */
    public DnsNameResolverBuilder queryTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("queryTimeout must be positive: " + timeout);
        }
        this.queryTimeout = timeout;
        return this;
    }

    /**
     * How many rounds over the servers a query makes (resolv.conf's {@code attempts}).
     *
     * @param attempts 1 or more
     * @return this builder
     */
    public DnsNameResolverBuilder attempts(int attempts) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1: " + attempts);
        }
        this.attempts = attempts;
        return this;
    }

    /**
     * Whether each query starts at the next server (resolv.conf's {@code rotate}).
     *
     * @param rotate true to spread queries over the servers
     * @return this builder
     */
    public DnsNameResolverBuilder rotate(boolean rotate) {
        this.rotate = rotate;
        return this;
    }

    /**
     * Which address families to ask for, and which comes first.
     *
     * @param types the choice ({@link ResolvedAddressTypes#IPV4_PREFERRED} by default)
     * @return this builder
     */
    public DnsNameResolverBuilder resolvedAddressTypes(ResolvedAddressTypes types) {
        this.types = types;
        return this;
    }

    /**
     * Bounds on how long a positive answer is cached, whatever its TTL (0 and a day by default).
     *
     * @param min the least
     * @param max the most
     * @return this builder
     */
    public DnsNameResolverBuilder ttl(Duration min, Duration max) {
        if (min.isNegative() || max.compareTo(min) < 0) {
            throw new IllegalArgumentException("need 0 <= min <= max: " + min + ", " + max);
        }
        this.minTtl = min;
        this.maxTtl = max;
        return this;
    }

    /**
     * The most a negative answer is cached (an hour by default; zero: not at all).
     *
     * @param max the most
     * @return this builder
     */
    public DnsNameResolverBuilder maxNegativeTtl(Duration max) {
        this.maxNegativeTtl = max;
        return this;
    }

    /**
     * The most CNAME links followed from one question (8 by default).
     *
     * @param max 1 or more
     * @return this builder
     */
    public DnsNameResolverBuilder maxCnameChain(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("maxCnameChain must be at least 1: " + max);
        }
        this.maxCnameChain = max;
        return this;
    }

    /**
     * When both families are asked for: how long the other family's answer is waited for once one
     * family's addresses are in (RFC 8305 §3, 50 ms by default), so that a server slow to answer
     * AAAA (or A) does not hold up the connect. Past it the addresses at hand are returned; the
     * late family's answer is still cached per question, and the name's next resolve has both.
     * Zero waits for both answers.
     *
     * @param delay zero or positive
     * @return this builder
     */
    public DnsNameResolverBuilder resolutionDelay(Duration delay) {
        if (delay == null || delay.isNegative()) {
            throw new IllegalArgumentException("resolutionDelay must be zero or positive: " + delay);
        }
        this.resolutionDelay = delay;
        return this;
    }

    /**
     * The most entries each of the two caches holds (10 000 by default).
     *
     * @param max 1 or more
     * @return this builder
     */
    public DnsNameResolverBuilder maxCacheEntries(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("maxCacheEntries must be at least 1: " + max);
        }
        this.maxCacheEntries = max;
        return this;
    }

    /**
     * The EDNS0 UDP payload size advertised (1232 by default; 0 sends no OPT record).
     *
     * @param size 0, or 512 to 65535
     * @return this builder
     */
    public DnsNameResolverBuilder udpPayloadSize(int size) {
        if (size != 0 && (size < 512 || size > 0xFFFF)) {
            throw new IllegalArgumentException("udpPayloadSize must be 0 or 512 to 65535: " + size);
        }
        this.udpPayloadSize = size;
        return this;
    }

    /**
     * Makes the UDP sockets, e.g. {@code EpollDatagramChannel::new} (NIO by default).
     *
     * @param factory makes a datagram channel on the resolver's loop
     * @return this builder
     */
    public DnsNameResolverBuilder datagramChannelFactory(ChannelFactory<? extends Channel> factory) {
        this.datagramChannels = factory;
        return this;
    }

    /**
     * Makes the TCP sockets for truncated answers, e.g. {@code EpollSocketChannel::new} (NIO by default).
     *
     * @param factory makes a socket channel on the resolver's loop
     * @return this builder
     */
    public DnsNameResolverBuilder socketChannelFactory(ChannelFactory<? extends Channel> factory) {
        this.socketChannels = factory;
        return this;
    }

    /**
     * The source of query IDs and source ports ({@code new SecureRandom()} by default).
     *
     * @param random a secure random source
     * @return this builder
     */
    public DnsNameResolverBuilder random(SecureRandom random) {
        this.random = random;
        return this;
    }

    /**
     * The clock TTLs and the hosts file's recheck run on, in nanoseconds ({@code System::nanoTime}).
     *
     * @param clock a monotonic clock
     * @return this builder
     */
    public DnsNameResolverBuilder clock(LongSupplier clock) {
        this.clock = clock;
        return this;
    }

    /**
     * Reads resolv.conf where a setting was left unset, and makes the resolver.
     *
     * @return the resolver
     * @throws UncheckedIOException if resolv.conf exists but cannot be read
     */
    public DnsNameResolver build() {
        ResolvConf conf;
        try {
            conf = resolvConf != null ? ResolvConf.read(resolvConf) : ResolvConf.parse("");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resolvConf, e);
        }
        HostsFile hosts = hostsFile == null ? null : new HostsFile(hostsFile, hostsRecheck.toNanos(), clock);
        return new DnsNameResolver(this,
                nameServers != null ? nameServers : conf.nameservers(),
                searchDomains != null ? searchDomains : conf.search(),
                ndots != null ? ndots : conf.ndots(),
                attempts != null ? attempts : conf.attempts(),
                rotate != null ? rotate : conf.rotate(),
                (queryTimeout != null ? queryTimeout : conf.timeout()).toMillis(),
                hosts);
    }
}
