package io.rill.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.rill.example.ForkedExample.Outcome;

/** {@code http-client URL URL ...} in a JVM of its own against example servers: one pooled connection per origin. */
class HttpClientPoolTest {

    private static final Pattern SERVED = Pattern.compile("== GET (\\S+) via (\\S+) \\((new|reused)\\)");

    /** Each "== GET" line: the URL, the local address of the connection, and whether it was reused. */
    private static List<String[]> served(String out) {
        List<String[]> lines = new ArrayList<>();
        Matcher m = SERVED.matcher(out);
        while (m.find()) {
            lines.add(new String[] {m.group(1), m.group(2), m.group(3)});
        }
        return lines;
    }

    @Test
    void severalUrlsOfOneServerShareOneKeptAliveConnection() throws Exception {
        try (ForkedExample server = new ForkedExample("http-hello", "--port", "0")) {
            String base = "http://127.0.0.1:" + server.port();
            Outcome fetched = ForkedExample.runToEnd("", "http-client", base + "/a", base + "/b", "--url", base + "/first");
            assertEquals(0, fetched.status(), fetched.err());
            List<String[]> served = served(fetched.out());
            assertEquals(3, served.size(), fetched.out());
            assertEquals(base + "/first", served.get(0)[0], "--url comes first, then the arguments in order");
            assertEquals("new", served.get(0)[2]);
            for (int i = 1; i < 3; i++) {
                assertEquals(served.get(0)[1], served.get(i)[1], "the same connection served " + served.get(i)[0]);
                assertEquals("reused", served.get(i)[2]);
            }
            assertEquals(3, fetched.out().split("HTTP/1.1 200 OK", -1).length - 1, fetched.out());
            assertTrue(fetched.out().contains("Hello, World!"), fetched.out());
        }
    }

    @Test
    void eachOriginGetsAConnectionOfItsOwn() throws Exception {
        try (ForkedExample one = new ForkedExample("http-hello", "--port", "0");
             ForkedExample two = new ForkedExample("http-hello", "--port", "0")) {
            String a = "http://127.0.0.1:" + one.port() + "/";
            String b = "http://127.0.0.1:" + two.port() + "/";
            Outcome fetched = ForkedExample.runToEnd("", "http-client", a, b, a);
            assertEquals(0, fetched.status(), fetched.err());
            List<String[]> served = served(fetched.out());
            assertEquals(3, served.size(), fetched.out());
            assertEquals("new", served.get(0)[2]);
            assertEquals("new", served.get(1)[2]);
            assertNotEquals(served.get(0)[1], served.get(1)[1]);
            assertEquals(served.get(0)[1], served.get(2)[1], "back to the first origin's connection");
            assertEquals("reused", served.get(2)[2]);
        }
    }

    @Test
    void aStrayWordIsStillAUsageErrorForExamplesWithoutArguments() throws Exception {
        Outcome stray = ForkedExample.runToEnd("", "echo-client", "oops");
        assertEquals(2, stray.status(), stray.err());
        assertTrue(stray.err().contains("unexpected argument 'oops'"), stray.err());
    }
}
