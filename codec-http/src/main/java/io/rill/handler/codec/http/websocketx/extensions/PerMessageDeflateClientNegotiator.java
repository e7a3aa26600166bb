package io.rill.handler.codec.http.websocketx.extensions;

import java.util.List;

import io.rill.handler.codec.http.websocketx.WebSocketExtension;
import io.rill.handler.codec.http.websocketx.WebSocketExtensionNegotiator;
import io.rill.handler.codec.http.websocketx.WebSocketHandshakeException;

/**
 * A client's permessage-deflate negotiation (RFC 7692 §5, §7.1): makes the offer
 * ({@link #offer()}, sent by the client handshaker) and checks the server's answer. The handshake
 * fails with a {@link WebSocketHandshakeException} when the answer
 *
 * <ul>
 *   <li>is malformed, names a parameter twice or one that does not exist, or accepts
 *       permessage-deflate more than once;
 *   <li>names {@code client_max_window_bits} that was not offered, without a value, or above the
 *       offered value;
 *   <li>lacks {@code server_max_window_bits} that was offered, or names a larger one;
 *   <li>lacks {@code server_no_context_takeover} that was offered.
 * </ul>
 *
 * The client compresses with the window the answer names (or its own, if smaller) and resets its
 * history per message when the answer says {@code client_no_context_takeover} or it offered it.
 * Immutable and thread-safe.
 */
public final class PerMessageDeflateClientNegotiator implements WebSocketExtensionNegotiator {

    private final boolean requestServerNoContextTakeover;
    private final PerMessageDeflateSettings settings;

    private PerMessageDeflateClientNegotiator(Builder b) {
        this.requestServerNoContextTakeover = b.requestServerNoContextTakeover;
        this.settings = b.settings;
    }

    /** @return a negotiator offering plain permessage-deflate (with {@code client_max_window_bits}), level 6 */
    public static PerMessageDeflateClientNegotiator standard() {
        return builder().build();
    }

    /** @return a builder with the defaults of {@link #standard()} */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the parameters this client offers */
    private PerMessageDeflateParams offered() {
        int serverBits = settings.serverMaxWindowBits();
        int clientBits = settings.clientMaxWindowBits();
        return new PerMessageDeflateParams(requestServerNoContextTakeover, settings.clientNoContextTakeover(),
                serverBits, serverBits < 15, clientBits < 15 ? clientBits : 0, true);
    }

    @Override
    public String offer() {
        return offered().toElement();
    }

    @Override
    public List<WebSocketExtension> negotiate(List<String> elements) {
        if (elements.isEmpty()) {
            return List.of(); // the server declined: no compression
        }
        if (elements.size() > 1) {
            throw new WebSocketHandshakeException("the server accepted more extensions than offered: " + elements);
        }
        PerMessageDeflateParams answer = PerMessageDeflateParams.of(ExtensionElement.parse(elements.get(0)));
        if (answer == null) {
            throw new WebSocketHandshakeException("not a valid permessage-deflate answer: " + elements.get(0));
        }
        check(answer, elements.get(0));
        int wanted = settings.clientMaxWindowBits();
        int ownBits = answer.clientBitsPresent() ? Math.min(answer.clientMaxWindowBits(), wanted) : wanted;
        boolean ownNoContext = answer.clientNoContextTakeover() || settings.clientNoContextTakeover();
        return List.of(new PerMessageDeflateExtension(answer, settings.level(), ownBits, ownNoContext,
                answer.serverNoContextTakeover(), settings.maxInflatedMessage()));
    }

    private void check(PerMessageDeflateParams answer, String element) {
        PerMessageDeflateParams offered = offered();
        if (answer.clientBitsPresent()) {
            if (answer.clientMaxWindowBits() == 0) {
                throw new WebSocketHandshakeException("client_max_window_bits without a value: " + element);
            }
            if (offered.clientMaxWindowBits() != 0 && answer.clientMaxWindowBits() > offered.clientMaxWindowBits()) {
                throw new WebSocketHandshakeException("client_max_window_bits above the offered "
                        + offered.clientMaxWindowBits() + ": " + element);
            }
        }
        if (offered.serverBitsPresent()
                && (!answer.serverBitsPresent() || answer.serverMaxWindowBits() > offered.serverMaxWindowBits())) {
            throw new WebSocketHandshakeException("server_max_window_bits=" + offered.serverMaxWindowBits()
                    + " was offered; the answer must name it with at most that: " + element);
        }
        if (offered.serverNoContextTakeover() && !answer.serverNoContextTakeover()) {
            throw new WebSocketHandshakeException("server_no_context_takeover was offered but not accepted: " + element);
        }
    }

    /** Settings of a {@link PerMessageDeflateClientNegotiator}. */
    public static final class Builder {
        private boolean requestServerNoContextTakeover;
        private PerMessageDeflateSettings settings = PerMessageDeflateSettings.DEFAULTS;

        private Builder() {
        }

        /**
         * @param level the DEFLATE level, 0 (stored) to 9 (smallest); 6 by default
         * @return this builder
         */
        public Builder compressionLevel(int level) {
            settings = settings.withLevel(level);
            return this;
        }

        /**
         * @param request offer {@code server_no_context_takeover}: the server must reset per message
         * @return this builder
         */
        public Builder requestServerNoContextTakeover(boolean request) {
            this.requestServerNoContextTakeover = request;
            return this;
        }

        /**
         * @param reset offer {@code client_no_context_takeover} and reset our history per message
         * @return this builder
         */
        public Builder clientNoContextTakeover(boolean reset) {
            settings = settings.withClientNoContextTakeover(reset);
            return this;
        }

        /**
         * @param bits offer {@code server_max_window_bits} with this value when below 15 (8..15)
         * @return this builder
         */
        public Builder serverMaxWindowBits(int bits) {
            settings = settings.withServerMaxWindowBits(bits);
            return this;
        }

        /**
         * @param bits the largest window this client compresses with, 8..15; offered as the value of
         *        {@code client_max_window_bits} when below 15 (the parameter is always offered)
         * @return this builder
         */
        public Builder clientMaxWindowBits(int bits) {
            settings = settings.withClientMaxWindowBits(bits);
            return this;
        }

        /**
         * @param bytes the most bytes one message may inflate to; beyond it the connection closes with 1009.
         *        The protocol handler's message limit ({@code maxMessagePayload}) applies too: the
         *        smaller of the two is the limit
         * @return this builder
         */
        public Builder maxInflatedMessage(int bytes) {
            settings = settings.withMaxInflatedMessage(bytes);
            return this;
        }

        /** @return a negotiator with these settings */
        public PerMessageDeflateClientNegotiator build() {
            return new PerMessageDeflateClientNegotiator(this);
        }
    }
}
