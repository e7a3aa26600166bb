package io.rill.resolver.dns;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.rill.bootstrap.Bootstrap;
import io.rill.bootstrap.ChannelFactory;
import io.rill.channel.Channel;
import io.rill.channel.EventLoop;
import io.rill.handler.codec.dns.DnsMessage;
import io.rill.handler.codec.dns.DnsNames;
import io.rill.handler.codec.dns.DnsQuestion;
import io.rill.handler.codec.dns.DnsRdata;
import io.rill.handler.codec.dns.DnsRecord;
import io.rill.handler.codec.dns.DnsRecordType;
import io.rill.resolver.NameResolver;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * A non-blocking stub resolver bound to one event loop: it asks recursive DNS servers over UDP
 * (TCP when an answer is truncated) and completes its futures on that loop. Made by
 * {@link #builder(EventLoop)}; the defaults come from {@code /etc/resolv.conf} and {@code /etc/hosts}.
 *
 * <p>A name is looked up in this order: an IP literal is returned as it is; then the hosts file;
 * then the cache; then DNS, under each name the search list makes of it (resolv.conf(5): a name
 * with at least {@code ndots} dots is tried as it is first, others last; a name with a trailing
 * dot is only tried as it is). NXDOMAIN or an empty answer moves to the next name at once, so
 * Kubernetes' {@code ndots:5} costs round trips, never timeouts.
 *
 * <p>Answers are trusted only as far as they answer the question: see {@link DnsQuery} for the
 * checks on each datagram. Within an accepted answer only the records on the CNAME chain from the
 * question's name are used (at most {@code maxCnameChain} links); records about other names, the
 * additional section, and an SOA outside the name's zones are ignored and never cached, so an
 * answer cannot plant data for names nobody asked about (bailiwick, RFC 5452 §6).
 *
 * <p>The cache keeps positive answers for their TTL, clamped to {@code [minTtl, maxTtl]}, and
 * negative ones (NXDOMAIN, no data) for the SOA's TTL or MINIMUM, whichever is smaller (RFC 2308
 * §5), at most {@code maxNegativeTtl}; an answer without an SOA is not cached. Identical
 * questions in flight at the same time share one query.
 */
public final class DnsNameResolver implements NameResolver<InetAddress> {

    private final EventLoop loop;
    private final List<InetSocketAddress> servers;
    private final List<String> search;
    private final int ndots;
    private final int attempts;
    private final boolean rotate;
    private final long queryTimeoutMillis;
    private final ResolvedAddressTypes types;
    private final long minTtlNanos;
    private final long maxTtlNanos;
    private final long maxNegativeTtlNanos;
    private final int maxCnameChain;
    private final long resolutionDelayNanos;
    private final int udpPayloadSize;
    private final HostsFile hosts;
    private final ChannelFactory<? extends Channel> datagramChannels;
    private final ChannelFactory<? extends Channel> socketChannels;
    private final SecureRandom random;
    private final LongSupplier clock;
    /** Final answers by the host string as the caller gave it: the fast path. */
    private final DnsCache byHost;
    /** Answers by "lower-cased absolute name/type". */
    private final DnsCache byQuestion;
    /** Questions being asked, by the same key as {@code byQuestion}; joined by identical ones. */
    private final Map<String, Promise<Answer>> inFlight = new HashMap<>();
    /** The sockets of the tries in flight; closed with the resolver. */
    private final Set<Channel> openChannels = new HashSet<>();
    /** Where the next query starts in {@code servers} when {@code rotate} is on. */
    private int nextServer;
    /** Written by the loop only; volatile so that any thread may read it. */
    private volatile long ignoredDatagrams;
    /** Written on the loop; volatile so that a late call from another thread sees it. */
    private volatile boolean closed;

    /**
     * Addresses with the TTL that bounds how long they may be cached; {@code partial} when one
     * family's answer was not waited for (such a list is not cached under the host).
     */
    record Answer(List<InetAddress> addresses, long ttlNanos, boolean partial) {
        Answer(List<InetAddress> addresses, long ttlNanos) {
            this(addresses, ttlNanos, false);
        }
    }

    DnsNameResolver(DnsNameResolverBuilder b, List<InetSocketAddress> servers, List<String> search, int ndots,
            int attempts, boolean rotate, long queryTimeoutMillis, HostsFile hosts) {
        this.loop = b.loop;
        this.servers = List.copyOf(servers);
        this.search = List.copyOf(search);
        this.ndots = ndots;
        this.attempts = attempts;
        this.rotate = rotate;
        this.queryTimeoutMillis = queryTimeoutMillis;
        this.types = b.types;
        this.minTtlNanos = b.minTtl.toNanos();
        this.maxTtlNanos = b.maxTtl.toNanos();
        this.maxNegativeTtlNanos = b.maxNegativeTtl.toNanos();
        this.maxCnameChain = b.maxCnameChain;
        this.resolutionDelayNanos = b.resolutionDelay.toNanos();
        this.udpPayloadSize = b.udpPayloadSize;
        this.hosts = hosts;
        this.datagramChannels = b.datagramChannels;
        this.socketChannels = b.socketChannels;
        this.random = b.random != null ? b.random : new SecureRandom();
        this.clock = b.clock;
        this.byHost = new DnsCache(clock, b.maxCacheEntries);
        this.byQuestion = new DnsCache(clock, b.maxCacheEntries);
    }

    /**
     * A builder for a resolver on {@code loop}.
     *
     * @param loop the event loop the resolver's sockets and futures live on
     * @return the builder
     */
    public static DnsNameResolverBuilder builder(EventLoop loop) {
        return new DnsNameResolverBuilder(loop);
    }

    @Override
    public EventLoop executor() {
        return loop;
    }

    @Override
    public Future<List<InetAddress>> resolveAll(String host) {
        if (host == null) {
            throw new NullPointerException("host");
        }
        if (loop.inEventLoop() && !closed) {
            Future<List<InetAddress>> known = known(host);
            if (known != null) {
                return known;
            }
        }
        Promise<List<InetAddress>> result = loop.newPromise();
        if (loop.inEventLoop()) {
            resolveOnLoop(host, result);
        } else {
            loop.execute(() -> resolveOnLoop(host, result));
        }
        return result;
    }

    private void resolveOnLoop(String host, Promise<List<InetAddress>> result) {
        if (closed) {
            result.tryFailure(new IllegalStateException("resolver closed"));
            return;
        }
        Future<List<InetAddress>> known = known(host);
        if (known != null) {
            result.trySuccess(known.getNow());
            return;
        }
        List<String> names;
        try {
            names = candidates(host);
        } catch (IllegalArgumentException e) {
            result.tryFailure(new DnsResolveException("not a valid host name: " + host + " (" + e.getMessage() + ")"));
            return;
        }
        tryName(host, names, 0, null, result);
    }

    /**
     * What {@code host} resolves to without asking DNS, as a finished future: a literal, the hosts
     * file, or the cache; null if DNS must be asked. A cached name gets the same future each time,
     * so a cached resolve allocates nothing.
     */
    private Future<List<InetAddress>> known(String host) {
        InetAddress literal = IpLiterals.parse(host);
        if (literal != null) {
            return loop.newSucceededFuture(List.of(literal));
        }
        List<InetAddress> fromHosts = hostsLookup(host);
        if (!fromHosts.isEmpty()) {
            return loop.newSucceededFuture(fromHosts);
        }
        DnsCache.Entry cached = byHost.get(host);
        return cached != null ? cached.resolved() : null;
    }

    private List<InetAddress> hostsLookup(String host) {
        if (hosts == null) {
            return List.of();
        }
        List<InetAddress> v4 = types == ResolvedAddressTypes.IPV6_ONLY ? List.of() : hosts.lookup(host, false);
        List<InetAddress> v6 = types == ResolvedAddressTypes.IPV4_ONLY ? List.of() : hosts.lookup(host, true);
        if (v4.isEmpty() || v6.isEmpty()) {
            return v4.isEmpty() ? v6 : v4;
        }
        return types == ResolvedAddressTypes.IPV6_PREFERRED ? concat(v6, v4) : concat(v4, v6);
    }

    /** The absolute names to try for {@code host}, in order (resolv.conf(5), "search"). */
    List<String> candidates(String host) {
        if (host.endsWith(".")) {
            DnsNames.labels(host);
            return List.of(host);
        }
        String asIs = host + '.';
        DnsNames.labels(asIs);
        List<String> out = new ArrayList<>(search.size() + 1);
        boolean enoughDots = host.chars().filter(c -> c == '.').count() >= ndots;
        if (enoughDots) {
            out.add(asIs);
        }
        for (String domain : search) {
            String name = asIs + domain;
            if (name.length() <= DnsNames.MAX_NAME && !out.contains(name)) {
                out.add(name);
            }
        }
        if (!enoughDots) {
            out.add(asIs);
        }
        return out;
    }

    /**
     * Tries {@code names[i]} and on to the next on any DNS failure; {@code notFound} collects why
     * each name had no address, for the final message.
     */
    private void tryName(String host, List<String> names, int i, DnsResolveException otherFailure,
            Promise<List<InetAddress>> result) {
        tryName(host, names, i, otherFailure, new ArrayList<>(names.size()), result);
    }

    private void tryName(String host, List<String> names, int i, DnsResolveException otherFailure, List<String> notFound,
            Promise<List<InetAddress>> result) {
        if (i == names.size()) {
            result.tryFailure(otherFailure != null ? otherFailure
                    : new DnsNameNotFoundException(host + ": no " + typesAsked() + " records: " + String.join("; ", notFound)));
            return;
        }
        lookup(names.get(i)).addListener((Future<? extends Answer> f) -> {
            if (f.isSuccess()) {
                if (!f.getNow().partial()) {
                    byHost.putPositive(host, f.getNow().addresses(), f.getNow().ttlNanos(),
                            loop.newSucceededFuture(f.getNow().addresses()));
                }
                result.trySuccess(f.getNow().addresses());
            } else if (f.cause() instanceof DnsNameNotFoundException e) {
                notFound.add(e.getMessage());
                tryName(host, names, i + 1, otherFailure, notFound, result);
            } else if (f.cause() instanceof DnsResolveException e) {
                tryName(host, names, i + 1, otherFailure != null ? otherFailure : e, notFound, result);
            } else {
                result.tryFailure(f.cause());
            }
        });
    }

    private String typesAsked() {
        return switch (types) {
            case IPV4_ONLY -> "A";
            case IPV6_ONLY -> "AAAA";
            default -> "A or AAAA";
        };
    }

    /** The addresses of one absolute name, of the families {@code types} asks for. */
    private Future<Answer> lookup(String name) {
        return switch (types) {
            case IPV4_ONLY -> query(name, DnsRecordType.A);
            case IPV6_ONLY -> query(name, DnsRecordType.AAAA);
            case IPV4_PREFERRED -> both(query(name, DnsRecordType.A), query(name, DnsRecordType.AAAA));
            case IPV6_PREFERRED -> both(query(name, DnsRecordType.AAAA), query(name, DnsRecordType.A));
        };
    }

    /**
     * Both families' answers, the preferred first; fails only if both fail, with the more telling
     * cause. Once one family has addresses, the other is waited for at most the resolution delay.
     */
    private Future<Answer> both(Future<Answer> preferred, Future<Answer> other) {
        Promise<Answer> result = loop.newPromise();
        if (resolutionDelayNanos > 0) {
            preferred.addListener(p -> withoutTheOther(preferred, other, result));
            other.addListener(o -> withoutTheOther(other, preferred, result));
        }
        preferred.addListener(p -> other.addListener(o -> {
            if (result.isDone()) {
                return; // went without the late family; its answer is in the question cache now
            }
            if (preferred.isSuccess() && other.isSuccess()) {
                result.trySuccess(new Answer(concat(preferred.getNow().addresses(), other.getNow().addresses()),
                        Math.min(preferred.getNow().ttlNanos(), other.getNow().ttlNanos())));
            } else if (preferred.isSuccess() || other.isSuccess()) {
                result.trySuccess(preferred.isSuccess() ? preferred.getNow() : other.getNow());
            } else {
                result.tryFailure(preferred.cause() instanceof DnsNameNotFoundException ? other.cause() : preferred.cause());
            }
        }));
        return result;
    }

    /** {@code first} answered: unless {@code second} answers within the resolution delay, go with {@code first}. */
    private void withoutTheOther(Future<Answer> first, Future<Answer> second, Promise<Answer> result) {
        if (!first.isSuccess() || second.isDone()) {
            return;
        }
        ScheduledFuture<?> delay = loop.schedule(() -> {
            if (!second.isDone()) {
                Answer got = first.getNow();
                result.trySuccess(new Answer(got.addresses(), got.ttlNanos(), true));
            }
        }, resolutionDelayNanos, TimeUnit.NANOSECONDS);
        second.addListener(f -> delay.cancel(false));
    }

    private static List<InetAddress> concat(List<InetAddress> a, List<InetAddress> b) {
        List<InetAddress> out = new ArrayList<>(a.size() + b.size());
        out.addAll(a);
        out.addAll(b);
        return List.copyOf(out);
    }

    /** One question through the cache, joined with an identical one in flight. */
    private Future<Answer> query(String name, int type) {
        String key = DnsNames.asciiLowerCase(name) + '/' + type;
        DnsCache.Entry cached = byQuestion.get(key);
        if (cached != null) {
            return cached.addresses() != null
                    ? loop.newSucceededFuture(new Answer(cached.addresses(), cached.expiresAt() - clock.getAsLong()))
                    : loop.newFailedFuture(cached.failure());
        }
        if (closed) {
            return loop.newFailedFuture(new DnsResolveException("resolver closed, " + name + " not asked"));
        }
        Future<Answer> running = inFlight.get(key);
        if (running != null) {
            return running;
        }
        Promise<Answer> result = loop.newPromise();
        inFlight.put(key, result);
        result.addListener(f -> inFlight.remove(key));
        Set<String> chain = new HashSet<>();
        chain.add(DnsNames.asciiLowerCase(name));
        follow(name, type, chain, Long.MAX_VALUE, key, result);
        return result;
    }

    /**
     * Asks for {@code name}/{@code type} and walks the answer's CNAME chain; asks again for the
     * chain's last name if the answer stops at a CNAME without its data.
     */
    private void follow(String name, int type, Set<String> chain, long ttlSoFar, String key, Promise<Answer> result) {
        DnsQuestion question = DnsQuestion.in(name, type);
        int first = rotate ? Math.floorMod(nextServer++, servers.size()) : 0;
        new DnsQuery(this, question, first).start().addListener((Future<? extends DnsMessage> f) -> {
            if (!f.isSuccess()) {
                result.tryFailure(f.cause());
                return;
            }
            DnsMessage answer = f.getNow();
            String current = name;
            long ttl = ttlSoFar;
            List<InetAddress> addresses = new ArrayList<>();
            while (true) {
                for (DnsRecord r : answer.answers()) {
                    if (r.type() == type && r.dnsClass() == DnsRecordType.CLASS_IN
                            && r.data() instanceof DnsRdata.Address a && DnsNames.equalsIgnoreCase(r.name(), current)) {
                        addresses.add(a.address());
                        ttl = Math.min(ttl, r.ttl() * 1_000_000_000L);
                    }
                }
                if (!addresses.isEmpty()) {
                    break;
                }
                DnsRecord cname = cnameOf(answer, current);
                if (cname == null) {
                    break;
                }
                String target = ((DnsRdata.Name) cname.data()).target();
                if (!chain.add(DnsNames.asciiLowerCase(target)) || chain.size() > maxCnameChain + 1) {
                    result.tryFailure(new DnsCnameLoopException("CNAME chain from " + question + " loops or is longer than "
                            + maxCnameChain + " (maxCnameChain): " + chain + " then " + target));
                    return;
                }
                ttl = Math.min(ttl, cname.ttl() * 1_000_000_000L);
                current = target;
            }
            if (!addresses.isEmpty()) {
                long clamped = Math.max(minTtlNanos, Math.min(maxTtlNanos, ttl));
                List<InetAddress> list = List.copyOf(addresses);
                byQuestion.putPositive(key, list, clamped);
                result.trySuccess(new Answer(list, clamped));
            } else if (answer.rcode() == DnsMessage.NOERROR && !current.equals(name)) {
                follow(current, type, chain, ttl, key, result); // the server gave the alias, not its data
            } else {
                notFound(answer, question, current, key, result);
            }
        });
    }

    private static DnsRecord cnameOf(DnsMessage answer, String owner) {
        for (DnsRecord r : answer.answers()) {
            if (r.type() == DnsRecordType.CNAME && r.dnsClass() == DnsRecordType.CLASS_IN
                    && DnsNames.equalsIgnoreCase(r.name(), owner)) {
                return r;
            }
        }
        return null;
    }

    /** NXDOMAIN or no data: cached for as long as an in-zone SOA allows (RFC 2308 §5). */
    private void notFound(DnsMessage answer, DnsQuestion question, String last, String key, Promise<Answer> result) {
        String what = answer.rcode() == DnsMessage.NXDOMAIN ? "NXDOMAIN" : "no data";
        DnsNameNotFoundException e = new DnsNameNotFoundException(question + ": " + what
                + (last.equals(question.name()) ? "" : " for " + last));
        long ttl = -1;
        for (DnsRecord r : answer.authorities()) {
            if (r.type() == DnsRecordType.SOA && r.dnsClass() == DnsRecordType.CLASS_IN && r.data() instanceof DnsRdata.Soa soa
                    && DnsNames.isInZone(last, r.name())) {
                ttl = Math.min(r.ttl(), soa.minimum()) * 1_000_000_000L;
                break;
            }
        }
        if (ttl > 0) {
            byQuestion.putNegative(key, e, Math.min(ttl, maxNegativeTtlNanos));
        }
        result.tryFailure(e);
    }

    /** Drops every cached answer; from another thread, on the loop before anything submitted later. */
    public void clearCache() {
        if (loop.inEventLoop()) {
            byHost.clear();
            byQuestion.clear();
        } else {
            loop.execute(this::clearCache);
        }
    }

    /**
     * Datagrams dropped because they did not answer a query: wrong source, ID or question, or
     * malformed. A rising count under normal traffic means someone is trying to spoof answers.
     *
     * @return the count since the resolver was made
     */
    public long ignoredDatagrams() {
        return ignoredDatagrams;
    }

    /** {@return the servers this resolver asks, in order} */
    public List<InetSocketAddress> servers() {
        return servers;
    }

    /** {@return the search domains, absolute} */
    public List<String> searchDomains() {
        return search;
    }

    /** {@return resolv.conf's ndots, or the builder's} */
    public int ndots() {
        return ndots;
    }

    /** {@return how many rounds over the servers a query makes} */
    public int attempts() {
        return attempts;
    }

    @Override
    public void close() {
        if (loop.inEventLoop()) {
            closed = true;
            clearCache();
            for (Channel c : List.copyOf(openChannels)) {
                c.close();
            }
            for (Promise<Answer> p : List.copyOf(inFlight.values())) {
                p.tryFailure(new DnsResolveException("resolver closed while asking"));
            }
        } else {
            loop.execute(this::close);
        }
    }

    EventLoop loop() {
        return loop;
    }

    long queryTimeoutMillis() {
        return queryTimeoutMillis;
    }

    int udpPayloadSize() {
        return udpPayloadSize;
    }

    SecureRandom random() {
        return random;
    }

    ChannelFactory<? extends Channel> datagramChannels() {
        return datagramChannels;
    }

    Bootstrap tcpBootstrap() {
        return new Bootstrap().group(loop).channelFactory(socketChannels);
    }

    /** Called on the loop only, so the read-modify-write of the volatile field cannot race. */
    /** Tracks a try's socket until it closes, so that {@link #close()} can close it. */
    void track(Channel channel) {
        if (closed) {
            channel.close();
            return;
        }
        openChannels.add(channel);
        channel.closeFuture().addListener(f -> openChannels.remove(channel));
    }

    int openChannelCount() {
        return openChannels.size();
    }

    boolean isClosed() {
        return closed;
    }

    void countIgnored() {
        ignoredDatagrams++;
    }

    @Override
    public String toString() {
        return "DnsNameResolver(servers: " + servers + ", search: " + search + ", ndots: " + ndots + ")";
    }
}
