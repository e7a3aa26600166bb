package io.rill.handler.codec.mqtt;

import java.util.Arrays;
import java.util.Objects;

/**
 * CONNECT (MQTT 5.0 section 3.1): the first packet of a client. Its version decides how both
 * sides encode every later packet.
 *
 * @param version the protocol version asked for
 * @param clientId the client identifier, possibly empty (the server then assigns one)
 * @param cleanStart true to start a new session (3.1.1: clean session)
 * @param keepAliveSeconds the keep-alive interval, 0 to 65535, 0 for none
 * @param properties the CONNECT properties
 * @param will the will message, or null
 * @param username the user name, or null
 * @param password the password, or null
 */
public record MqttConnect(MqttVersion version, String clientId, boolean cleanStart, int keepAliveSeconds,
                          MqttProperties properties, MqttWill will, String username, byte[] password)
        implements MqttMessage {

    /**
     * Checks the fields.
     *
     * @param version the protocol version asked for
     * @param clientId the client identifier, possibly empty (the server then assigns one)
     * @param cleanStart true to start a new session (3.1.1: clean session)
     * @param keepAliveSeconds the keep-alive interval, 0 to 65535, 0 for none
     * @param properties the CONNECT properties
     * @param will the will message, or null
     * @param username the user name, or null
     * @param password the password, or null
     */
    public MqttConnect {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(properties, "properties");
        if (keepAliveSeconds < 0 || keepAliveSeconds > 0xffff) {
            throw new IllegalArgumentException("keepAliveSeconds: " + keepAliveSeconds);
        }
    }

    /**
     * A CONNECT without will, user name or password.
     *
     * @param version the protocol version
     * @param clientId the client identifier
     * @param cleanStart true to start a new session
     * @param keepAliveSeconds the keep-alive interval
     * @param properties the CONNECT properties
     */
    public MqttConnect(MqttVersion version, String clientId, boolean cleanStart, int keepAliveSeconds,
                       MqttProperties properties) {
        this(version, clientId, cleanStart, keepAliveSeconds, properties, null, null, null);
    }

    @Override
    public MqttPacketType type() {
        return MqttPacketType.CONNECT;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MqttConnect c && version == c.version && clientId.equals(c.clientId)
                && cleanStart == c.cleanStart && keepAliveSeconds == c.keepAliveSeconds
                && properties.equals(c.properties) && Objects.equals(will, c.will)
                && Objects.equals(username, c.username) && Arrays.equals(password, c.password);
    }

    @Override
    public int hashCode() {
        return Objects.hash(version, clientId, cleanStart, keepAliveSeconds, properties, will, username);
    }

    /** Names every field but the password, which it only says is there. */
    @Override
    public String toString() {
        return "MqttConnect[version=" + version + ", clientId=" + clientId + ", cleanStart=" + cleanStart
                + ", keepAliveSeconds=" + keepAliveSeconds + ", properties=" + properties + ", will=" + will
                + ", username=" + username + ", password=" + (password == null ? "none" : password.length + " bytes") + "]";
    }
}
