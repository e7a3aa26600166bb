package io.rill.handler.codec.http.websocketx.extensions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The RFC 6455 §9.1 element grammar: tokens, parameters, quoted values, and what declines an offer. */
class ExtensionElementTest {

    @Test
    void parsesANameAlone() {
        assertEquals(new ExtensionElement("permessage-deflate", Map.of()), ExtensionElement.parse("permessage-deflate"));
    }

    @Test
    void parsesParametersWithAndWithoutValuesInOrder() {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("client_max_window_bits", null);
        params.put("server_max_window_bits", "10");
        ExtensionElement e = ExtensionElement.parse("permessage-deflate ;client_max_window_bits;  server_max_window_bits = 10 ");
        assertEquals(params, e.params());
        assertEquals("permessage-deflate; client_max_window_bits; server_max_window_bits=10", e.toString());
    }

    @Test
    void unquotesQuotedValues() {
        assertEquals("10", ExtensionElement.parse("permessage-deflate; client_max_window_bits=\"10\"").params()
                .get("client_max_window_bits"));
        assertEquals("10", ExtensionElement.parse("x; a=\"1\\0\"").params().get("a"), "a backslash escapes");
    }

    @Test
    void namesAreCaseInsensitive() {
        ExtensionElement e = ExtensionElement.parse("PerMessage-Deflate; Server_No_Context_Takeover");
        assertEquals("permessage-deflate", e.name());
        assertEquals(true, e.params().containsKey("server_no_context_takeover"));
    }

    @Test
    void malformedElementsAreNull() {
        for (String bad : new String[] {"", ";", "permessage-deflate;", "permessage-deflate; =1", "a b", "a; b=",
                "a; b=\"\"", "a; b=\"1", "a; b=\"x,y\"", "a; b=\"x y\"", "a; b=1 2", "a;; b", "a; b=\"1\\",
                "\"a\"", "a; b=(1)"}) {
            assertNull(ExtensionElement.parse(bad), bad);
        }
    }

    @Test
    void aRepeatedParameterIsNull() {
        assertNull(ExtensionElement.parse("permessage-deflate; server_no_context_takeover; SERVER_NO_CONTEXT_TAKEOVER"));
        assertNull(ExtensionElement.parse("permessage-deflate; server_max_window_bits=10; server_max_window_bits=\"10\""));
    }
}
