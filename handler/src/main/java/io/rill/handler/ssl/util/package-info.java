/**
 * TLS helpers for tests and local experiments, never for production trust:
 * {@link io.rill.handler.ssl.util.SelfSignedCertificate} makes a certificate and key (for
 * {@code localhost}, 127.0.0.1 and ::1 by default) in memory and as PEM files, and
 * {@link io.rill.handler.ssl.util.InsecureTrustManagerFactory} trusts every certificate.
 */
package io.rill.handler.ssl.util;
