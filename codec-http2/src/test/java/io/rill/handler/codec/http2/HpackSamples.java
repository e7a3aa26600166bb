package io.rill.handler.codec.http2;

import java.util.Random;

/** Random but valid field sections, shared by the round-trip and interoperability tests. */
final class HpackSamples {

    private static final String[] NAMES = {
        "accept", "accept-encoding", "accept-language", "cache-control", "content-type", "content-length",
        "cookie", "authorization", "user-agent", "referer", "x-request-id", "x-trace", "x-custom-a",
        "x-custom-b", "etag", "if-none-match", "set-cookie", "te",
    };
    private static final String VALUE_CHARS =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 !#$%&'()*+,-./:;<=>?@[]^_`{|}~\"\\";

    private HpackSamples() {
    }

    static Http2Headers randomSection(Random random) {
        Http2Headers h = new Http2Headers();
        if (random.nextBoolean()) {
            h.add(":method", random.nextBoolean() ? "GET" : "POST");
            h.add(":scheme", random.nextBoolean() ? "https" : "http");
            h.add(":path", "/" + randomValue(random, 12).trim().replace(' ', '_'));
            h.add(":authority", "host" + random.nextInt(3) + ".example.com");
        } else {
            h.add(":status", String.valueOf(200 + random.nextInt(4) * 100 + random.nextInt(5)));
        }
        for (int i = random.nextInt(12); i > 0; i--) {
            String name = NAMES[random.nextInt(NAMES.length)];
            h.add(name, name.equals("te") ? "trailers" : randomValue(random, random.nextInt(4) == 0 ? 120 : 16));
        }
        return h;
    }

    /** A value without leading or trailing white space; repeats often so that the table gets hits. */
    private static String randomValue(Random random, int maxLength) {
        if (random.nextInt(3) == 0) {
            return "v" + random.nextInt(10);
        }
        StringBuilder sb = new StringBuilder();
        for (int n = 1 + random.nextInt(maxLength); sb.length() < n; ) {
            sb.append(VALUE_CHARS.charAt(random.nextInt(VALUE_CHARS.length())));
        }
        String v = sb.toString().strip();
        return v.isEmpty() ? "x" : v;
    }
}
