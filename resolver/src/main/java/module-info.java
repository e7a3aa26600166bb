/**
 * The resolver API: {@link io.rill.resolver.NameResolver} turns a host name into addresses,
 * {@link io.rill.resolver.AddressResolver} an unresolved socket address into resolved ones, and an
 * {@link io.rill.resolver.AddressResolverGroup} hands each event loop its own resolver. The default,
 * {@link io.rill.resolver.JdkAddressResolverGroup}, runs the JDK's lookup on a bounded pool of
 * threads, never on an event loop; {@code io.rill.resolver.dns} has the non-blocking DNS resolver.
 */
module io.rill.resolver {
    requires transitive io.rill.common;

    exports io.rill.resolver;
}
