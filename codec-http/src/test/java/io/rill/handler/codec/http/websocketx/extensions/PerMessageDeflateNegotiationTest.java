package io.rill.handler.codec.http.websocketx.extensions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.handler.codec.http.websocketx.WebSocketExtension;
import io.rill.handler.codec.http.websocketx.WebSocketFrame;
import io.rill.handler.codec.http.websocketx.WebSocketHandshakeException;

/** Offers against answers, both ways (RFC 7692 §5, §7.1): each row is an offer and the expected answer. */
class PerMessageDeflateNegotiationTest {

    private static final PerMessageDeflateServerNegotiator ALL = PerMessageDeflateServerNegotiator.acceptAll();
    private static final String PMD = "permessage-deflate";

    @Test
    void serverAnswersEachParameterOfAnAcceptableOffer() {
        String[][] rows = {
            {"permessage-deflate", PMD},
            {"permessage-deflate; server_no_context_takeover", PMD + "; server_no_context_takeover"},
            {"permessage-deflate; client_no_context_takeover", PMD + "; client_no_context_takeover"},
            {"permessage-deflate; server_max_window_bits=10", PMD + "; server_max_window_bits=10"},
            {"permessage-deflate; server_max_window_bits=\"8\"", PMD + "; server_max_window_bits=8"},
            {"permessage-deflate; client_max_window_bits", PMD},
            {"permessage-deflate; client_max_window_bits=9", PMD + "; client_max_window_bits=9"},
            {"PERMESSAGE-DEFLATE; Client_Max_Window_Bits=\"12\"; server_no_context_takeover",
                PMD + "; server_no_context_takeover; client_max_window_bits=12"},
        };
        for (String[] row : rows) {
            assertEquals(row[1], answer(ALL, row[0]), row[0]);
        }
    }

    @Test
    void serverDeclinesInvalidOffersAndTakesTheNextOne() {
        String[] bad = {
            "permessage-deflate; server_max_window_bits", "permessage-deflate; server_max_window_bits=7",
            "permessage-deflate; server_max_window_bits=16", "permessage-deflate; server_max_window_bits=010",
            "permessage-deflate; client_max_window_bits=0", "permessage-deflate; client_max_window_bits=+9",
            "permessage-deflate; server_no_context_takeover=1", "permessage-deflate; client_no_context_takeover=\"x\"",
            "permessage-deflate; unknown", "permessage-deflate; client_max_window_bits; client_max_window_bits",
            "permessage-deflate; client_max_window_bits=\"1 0\"", "x-webkit-deflate-frame",
        };
        for (String offer : bad) {
            assertEquals(null, answer(ALL, offer), offer);
            assertEquals(PMD + "; client_no_context_takeover",
                    answer(ALL, offer, "permessage-deflate; client_no_context_takeover"), "the next offer after " + offer);
        }
    }

    @Test
    void serverAcceptsTheFirstOfTwoValidOffers() {
        assertEquals(PMD + "; server_max_window_bits=9",
                answer(ALL, "permessage-deflate; server_max_window_bits=9", "permessage-deflate"));
    }

    @Test
    void serverOptionsImposeDeclineOrCap() {
        PerMessageDeflateServerNegotiator strict = PerMessageDeflateServerNegotiator.builder()
                .serverNoContextTakeover(true).clientNoContextTakeover(true).serverMaxWindowBits(11)
                .clientMaxWindowBits(10).build();
        assertEquals(PMD + "; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=11",
                answer(strict, "permessage-deflate"), "client_max_window_bits not offered: not named");
        assertEquals(PMD + "; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=9; "
                + "client_max_window_bits=10", answer(strict, "permessage-deflate; server_max_window_bits=9; client_max_window_bits"));
        assertEquals(PMD + "; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=11; "
                + "client_max_window_bits=8", answer(strict, "permessage-deflate; client_max_window_bits=8"));

        PerMessageDeflateServerNegotiator refusing = PerMessageDeflateServerNegotiator.builder()
                .allowServerNoContextTakeover(false).allowServerMaxWindowBits(false).build();
        assertEquals(null, answer(refusing, "permessage-deflate; server_no_context_takeover"));
        assertEquals(null, answer(refusing, "permessage-deflate; server_max_window_bits=12"));
        assertEquals(PMD, answer(refusing, "permessage-deflate; server_max_window_bits=12", "permessage-deflate"));
    }

    @Test
    void theExtensionClaimsRsv1() {
        WebSocketExtension e = ALL.negotiate(List.of("permessage-deflate")).get(0);
        assertEquals(WebSocketFrame.RSV1, e.rsv());
    }

    @Test
    void clientOffersItsSettings() {
        assertEquals(PMD + "; client_max_window_bits", PerMessageDeflateClientNegotiator.standard().offer());
        assertEquals(PMD + "; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10; "
                + "client_max_window_bits=9", PerMessageDeflateClientNegotiator.builder().requestServerNoContextTakeover(true)
                .clientNoContextTakeover(true).serverMaxWindowBits(10).clientMaxWindowBits(9).build().offer());
    }

    @Test
    void clientAcceptsValidAnswersAndNoAnswer() {
        PerMessageDeflateClientNegotiator client = PerMessageDeflateClientNegotiator.builder().serverMaxWindowBits(12)
                .clientMaxWindowBits(11).build();
        for (String ok : new String[] {"permessage-deflate; server_max_window_bits=12",
                "permessage-deflate; server_max_window_bits=8; client_max_window_bits=11",
                "permessage-deflate; server_max_window_bits=\"10\"; client_max_window_bits=9; server_no_context_takeover; "
                        + "client_no_context_takeover"}) {
            assertEquals(1, client.negotiate(List.of(ok)).size(), ok);
        }
        assertTrue(client.negotiate(List.of()).isEmpty(), "a server that declines leaves the connection uncompressed");
    }

    @Test
    void clientRefusesAnswersThatBreakTheOffer() {
        PerMessageDeflateClientNegotiator client = PerMessageDeflateClientNegotiator.builder().serverMaxWindowBits(12)
                .clientMaxWindowBits(11).requestServerNoContextTakeover(true).build();
        String base = "permessage-deflate; server_no_context_takeover; server_max_window_bits=12";
        for (String bad : new String[] {
            "permessage-deflate; server_max_window_bits=12", // no server_no_context_takeover
            "permessage-deflate; server_no_context_takeover", // no server_max_window_bits
            "permessage-deflate; server_no_context_takeover; server_max_window_bits=13",
            base + "; client_max_window_bits", base + "; client_max_window_bits=12", base + "; client_max_window_bits=7",
            base + "; unknown", base + "; server_no_context_takeover", "x-other", base + "; a=\"", "permessage-deflate;",
        }) {
            assertThrows(WebSocketHandshakeException.class, () -> client.negotiate(List.of(bad)), bad);
        }
        assertThrows(WebSocketHandshakeException.class, () -> client.negotiate(List.of(base, base)), "accepted twice");
        PerMessageDeflateClientNegotiator plain = PerMessageDeflateClientNegotiator.builder().build();
        assertEquals(1, plain.negotiate(List.of("permessage-deflate; client_max_window_bits=8")).size(),
                "valueless client_max_window_bits offered: any value may come back");
    }

    @Test
    void bothBuildersRefuseSettingsOutOfRangeAndNameThem() {
        PerMessageDeflateServerNegotiator.Builder server = PerMessageDeflateServerNegotiator.builder();
        PerMessageDeflateClientNegotiator.Builder client = PerMessageDeflateClientNegotiator.builder();
        List<Runnable> refused = List.of(() -> server.compressionLevel(10), () -> client.compressionLevel(-1),
                () -> server.serverMaxWindowBits(16), () -> client.serverMaxWindowBits(7),
                () -> server.clientMaxWindowBits(7), () -> client.clientMaxWindowBits(16),
                () -> server.maxInflatedMessage(0), () -> client.maxInflatedMessage(-1));
        List<String> messages = List.of("compression level 10 (expected 0..9)", "compression level -1 (expected 0..9)",
                "window bits 16 (expected 8..15)", "window bits 7 (expected 8..15)", "window bits 7 (expected 8..15)",
                "window bits 16 (expected 8..15)", "maxInflatedMessage must be positive: 0",
                "maxInflatedMessage must be positive: -1");
        for (int i = 0; i < refused.size(); i++) {
            assertEquals(messages.get(i), assertThrows(IllegalArgumentException.class, refused.get(i)::run).getMessage());
        }
        assertEquals(PMD + "; client_max_window_bits", client.build().offer(), "a refused setting leaves the others as they were");
        assertEquals(PMD, answer(server.build(), "permessage-deflate"));
    }

    @Test
    void aBuiltNegotiatorIgnoresLaterBuilderCalls() {
        PerMessageDeflateClientNegotiator.Builder clientBuilder = PerMessageDeflateClientNegotiator.builder()
                .clientMaxWindowBits(10);
        PerMessageDeflateClientNegotiator client = clientBuilder.build();
        clientBuilder.clientMaxWindowBits(9).serverMaxWindowBits(11).clientNoContextTakeover(true);
        assertEquals(PMD + "; client_max_window_bits=10", client.offer());
        assertEquals(PMD + "; client_no_context_takeover; server_max_window_bits=11; client_max_window_bits=9",
                clientBuilder.build().offer());

        PerMessageDeflateServerNegotiator.Builder serverBuilder = PerMessageDeflateServerNegotiator.builder()
                .serverMaxWindowBits(12);
        PerMessageDeflateServerNegotiator server = serverBuilder.build();
        serverBuilder.serverMaxWindowBits(9).clientNoContextTakeover(true);
        assertEquals(PMD + "; server_max_window_bits=12", answer(server, "permessage-deflate"));
        assertEquals(PMD + "; client_no_context_takeover; server_max_window_bits=9",
                answer(serverBuilder.build(), "permessage-deflate"));
    }

    private static String answer(PerMessageDeflateServerNegotiator server, String... offers) {
        List<WebSocketExtension> accepted = server.negotiate(List.of(offers));
        return accepted.isEmpty() ? null : accepted.get(0).responseElement();
    }
}
