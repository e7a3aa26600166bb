package io.rill.handler.codec.socks;

/**
 * A SOCKS5 request or reply named an address type other than IPv4, domain name and IPv6. Its own
 * type so that a server can answer it with {@link Socks5CommandStatus#ADDRESS_UNSUPPORTED}, as
 * RFC 1928 §6 asks, before it closes.
 */
public class SocksUnsupportedAddressTypeException extends SocksProtocolException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the message and the address type byte
     */
    public SocksUnsupportedAddressTypeException(String message) {
        super(message);
    }
}
