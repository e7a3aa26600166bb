package io.rill.handler.codec.http2;

import java.util.ArrayList;
import java.util.List;

/**
 * Realistic field sections for the HPACK benchmarks, as name/value arrays so Rill's and Netty's
 * benchmarks build their own header objects from the same fields. A "connection" is
 * {@value #REQUESTS} requests of one set in a row, each with its own {@code :path} and request
 * id, as a browser or API client sends them: the first request fills the dynamic table, the
 * rest mostly hit it and insert two new entries each, which keeps the table evicting.
 */
public final class HpackBenchmarkSets {

    /** Requests per connection: the unit an invocation decodes or encodes. */
    public static final int REQUESTS = 64;

    private static final String[] BROWSER_GET = {
        ":method", "GET", ":scheme", "https", ":authority", "www.example.com", ":path", "/",
        "user-agent", "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0",
        "accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
        "accept-language", "en-US,en;q=0.5",
        "accept-encoding", "gzip, deflate, br",
        "sec-fetch-dest", "document",
        "sec-fetch-mode", "navigate",
        "x-request-id", "",
    };

    private static final String[] WITH_COOKIES = {
        "cookie", "sid=31d4d96e407aad42f0e1c2b3a4958677; theme=dark; lang=en",
        "cookie", "_ga=GA1.2.1234567890.1700000000; _gid=GA1.2.987654321.1700000000",
        "cookie", "cart=7f3e9a2b-5c1d-4e8f-9a0b-1c2d3e4f5a6b",
        "referer", "https://www.example.com/catalog/shoes?color=blue&size=42",
        "cache-control", "max-age=0",
        "upgrade-insecure-requests", "1",
        "sec-fetch-site", "same-origin",
        "sec-fetch-user", "?1",
        "sec-ch-ua", "\"Chromium\";v=\"120\", \"Not(A:Brand\";v=\"24\"",
        "sec-ch-ua-mobile", "?0",
        "sec-ch-ua-platform", "\"Linux\"",
        "priority", "u=0, i",
        "dnt", "1",
        "if-none-match", "\"33a64df551425fcc55e4d42a148795d9f25f89d4\"",
    };

    private HpackBenchmarkSets() {
    }

    /**
     * The requests of one connection.
     *
     * @param set {@code small} (a browser GET, 12 fields), {@code medium} (26 fields with cookies)
     *     or {@code large} (101 fields: medium plus 75 application headers)
     * @return {@link #REQUESTS} sections as name, value, name, value, ...
     */
    public static List<String[]> connection(String set) {
        List<String> base = new ArrayList<>(List.of(BROWSER_GET));
        if (!set.equals("small")) {
            base.addAll(List.of(WITH_COOKIES));
        }
        if (set.equals("large")) {
            for (int i = 0; i < 75; i++) {
                base.add("x-app-header-" + i);
                base.add("value-" + i + "-" + Integer.toHexString(i * 40503));
            }
        } else if (!set.equals("small") && !set.equals("medium")) {
            throw new IllegalArgumentException("set: " + set);
        }
        List<String[]> requests = new ArrayList<>();
        for (int r = 0; r < REQUESTS; r++) {
            String[] fields = base.toArray(new String[0]);
            fields[7] = "/catalog/item/" + (1000 + r) + "?ref=list";
            fields[BROWSER_GET.length - 1] = Integer.toHexString(0x5f3a0000 + r * 7919);
            requests.add(fields);
        }
        return requests;
    }

    /** A Rill section of the fields. */
    static Http2Headers rillHeaders(String[] fields) {
        Http2Headers h = new Http2Headers();
        for (int i = 0; i < fields.length; i += 2) {
            h.add(io.rill.util.AsciiString.cached(fields[i]), io.rill.util.AsciiString.cached(fields[i + 1]));
        }
        return h;
    }
}
