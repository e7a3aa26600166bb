/**
 * Name and address resolution as futures: {@link io.rill.resolver.NameResolver},
 * {@link io.rill.resolver.AddressResolver}, one resolver per event loop through
 * {@link io.rill.resolver.AddressResolverGroup}, and the default over the JDK's blocking lookup.
 */
package io.rill.resolver;
