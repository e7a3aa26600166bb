package io.rill.handler.codec.socks;

import java.nio.charset.StandardCharsets;

import io.rill.buffer.ByteBuf;

/**
 * Username/password authentication (RFC 1929 §2): {@code VER=1 | ULEN | UNAME | PLEN | PASSWD}.
 * Both are sent as UTF-8, 1 to 255 bytes each. {@link #toString} never shows the password.
 *
 * @param username the user name
 * @param password the password
 */
public record Socks5PasswordAuthRequest(String username, String password) implements SocksMessage {

    /**
     * Checks both lengths.
     *
     * @param username the user name
     * @param password the password
     */
    public Socks5PasswordAuthRequest {
        SocksWire.checkText(username, "username", 1);
        SocksWire.checkText(password, "password", 1);
    }

    @Override
    public void writeTo(ByteBuf out) {
        byte[] user = username.getBytes(StandardCharsets.UTF_8);
        byte[] pass = password.getBytes(StandardCharsets.UTF_8);
        out.writeByte(1).writeByte(user.length).writeBytes(user).writeByte(pass.length).writeBytes(pass);
    }

    @Override
    public String toString() {
        return "Socks5PasswordAuthRequest[username=" + username + ", password=<hidden>]";
    }
}
