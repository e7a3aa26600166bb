/**
 * DNS messages (RFC 1035, EDNS0 RFC 6891, SVCB/HTTPS RFC 9460) as immutable records, a strict
 * decoder ({@link io.rill.handler.codec.dns.DnsMessageDecoder}) and a compressing encoder
 * ({@link io.rill.handler.codec.dns.DnsMessageEncoder}), and the handlers that frame them over TCP.
 */
package io.rill.handler.codec.dns;
