package io.rill.handler.codec.http.websocketx.extensions;

import java.util.List;

import io.rill.handler.codec.http.websocketx.WebSocketExtension;
import io.rill.handler.codec.http.websocketx.WebSocketExtensionNegotiator;

/**
 * A server's permessage-deflate negotiation (RFC 7692 §5.1, §7.1): walks the client's offers in
 * order, accepts the first permessage-deflate offer it can satisfy and declines the others (and
 * every offer that is malformed, repeats a parameter or names one it does not know). Per parameter:
 *
 * <ul>
 *   <li>{@code server_no_context_takeover} offered: accepted and repeated in the answer, unless
 *       {@link Builder#allowServerNoContextTakeover} is off (the offer is then declined); the server
 *       may also impose it itself ({@link Builder#serverNoContextTakeover}).
 *   <li>{@code client_no_context_takeover}: repeated when offered, or imposed with
 *       {@link Builder#clientNoContextTakeover}; a client must honour it either way.
 *   <li>{@code server_max_window_bits=N} offered: the answer names {@code min(N, own)} where own is
 *       {@link Builder#serverMaxWindowBits}; with {@link Builder#allowServerMaxWindowBits} off the
 *       offer is declined. Not offered: named only when own is below 15.
 *   <li>{@code client_max_window_bits[=N]} offered: the answer names {@code min(N, wanted)} (wanted
 *       is {@link Builder#clientMaxWindowBits}) when N was given or wanted is below 15; never named
 *       when not offered (§7.1.2.2).
 * </ul>
 *
 * The extension compresses with the agreed server window and context rule and inflates each
 * message up to {@link Builder#maxInflatedMessage} bytes (larger: close 1009). Immutable and
 * thread-safe: one instance serves every connection.
 */
public final class PerMessageDeflateServerNegotiator implements WebSocketExtensionNegotiator {

    private final boolean allowServerNoContextTakeover;
    private final boolean serverNoContextTakeover;
    private final boolean allowServerMaxWindowBits;
    private final PerMessageDeflateSettings settings;

    private PerMessageDeflateServerNegotiator(Builder b) {
        this.allowServerNoContextTakeover = b.allowServerNoContextTakeover;
        this.serverNoContextTakeover = b.serverNoContextTakeover;
        this.allowServerMaxWindowBits = b.allowServerMaxWindowBits;
        this.settings = b.settings;
    }

    /** @return a negotiator that accepts every valid offer, level 6, 64 KiB inflated messages */
    public static PerMessageDeflateServerNegotiator acceptAll() {
        return builder().build();
    }

    /** @return a builder with the defaults of {@link #acceptAll()} */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public List<WebSocketExtension> negotiate(List<String> elements) {
        for (String element : elements) {
            PerMessageDeflateParams offer = PerMessageDeflateParams.of(ExtensionElement.parse(element));
            if (offer == null) {
                continue;
            }
            PerMessageDeflateExtension accepted = accept(offer);
            if (accepted != null) {
                return List.of(accepted);
            }
        }
        return List.of();
    }

    /** The answer to one valid offer, or null to decline it. */
    private PerMessageDeflateExtension accept(PerMessageDeflateParams offer) {
        if (offer.serverNoContextTakeover() && !allowServerNoContextTakeover) {
            return null;
        }
        if (offer.serverBitsPresent() && !allowServerMaxWindowBits) {
            return null;
        }
        int serverBits = Math.min(settings.serverMaxWindowBits(), offer.serverMaxWindowBits());
        boolean nameServerBits = offer.serverBitsPresent() || serverBits < 15;
        int clientBits = Math.min(settings.clientMaxWindowBits(),
                offer.clientMaxWindowBits() == 0 ? 15 : offer.clientMaxWindowBits());
        boolean nameClientBits = offer.clientBitsPresent() && (offer.clientMaxWindowBits() != 0 || clientBits < 15);
        boolean serverNoContext = offer.serverNoContextTakeover() || serverNoContextTakeover;
        boolean clientNoContext = offer.clientNoContextTakeover() || settings.clientNoContextTakeover();
        PerMessageDeflateParams agreed = new PerMessageDeflateParams(serverNoContext, clientNoContext,
                serverBits, nameServerBits, nameClientBits ? clientBits : 15, nameClientBits);
        return new PerMessageDeflateExtension(agreed, settings.level(), serverBits, serverNoContext, clientNoContext,
                settings.maxInflatedMessage());
    }

    /** Settings of a {@link PerMessageDeflateServerNegotiator}. */
    public static final class Builder {
        private boolean allowServerNoContextTakeover = true;
        private boolean serverNoContextTakeover;
        private boolean allowServerMaxWindowBits = true;
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
         * @param allow accept offers that ask the server to reset its history per message (true by
         *        default); false declines them
         * @return this builder
         */
        public Builder allowServerNoContextTakeover(boolean allow) {
            this.allowServerNoContextTakeover = allow;
            return this;
        }

        /**
         * @param require reset the server's history after every message and say so, offered or not
         * @return this builder
         */
        public Builder serverNoContextTakeover(boolean require) {
            this.serverNoContextTakeover = require;
            return this;
        }

        /**
         * @param require tell the client to reset its history after every message, offered or not
         * @return this builder
         */
        public Builder clientNoContextTakeover(boolean require) {
            settings = settings.withClientNoContextTakeover(require);
            return this;
        }

        /**
         * @param allow accept offers that limit the server's window (true by default); false declines them
         * @return this builder
         */
        public Builder allowServerMaxWindowBits(boolean allow) {
            this.allowServerMaxWindowBits = allow;
            return this;
        }

        /**
         * @param bits the largest window the server compresses with, 8..15 (15 by default)
         * @return this builder
         */
        public Builder serverMaxWindowBits(int bits) {
            settings = settings.withServerMaxWindowBits(bits);
            return this;
        }

        /**
         * @param bits the window the server asks a client to compress with when the client offers to
         *        limit it, 8..15 (15 by default)
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
        public PerMessageDeflateServerNegotiator build() {
            return new PerMessageDeflateServerNegotiator(this);
        }
    }
}
