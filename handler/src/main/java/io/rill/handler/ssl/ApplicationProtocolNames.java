package io.rill.handler.ssl;

/** ALPN protocol identifiers from the IANA registry (RFC 7301 §6) that Rill's codecs speak. */
public final class ApplicationProtocolNames {

    /** HTTP/2 over TLS (RFC 9113 §3.2). */
    public static final String HTTP_2 = "h2";
    /** HTTP/1.1 (RFC 7301 §6). */
    public static final String HTTP_1_1 = "http/1.1";

    private ApplicationProtocolNames() {
    }
}
