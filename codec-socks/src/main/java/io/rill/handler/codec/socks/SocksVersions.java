package io.rill.handler.codec.socks;

/** The version check every decoder starts with. */
final class SocksVersions {

    private SocksVersions() {
    }

    static void check(int version, int expected, String what) {
        if (version != expected) {
            throw new SocksProtocolException(what + ": version " + version + " (expected: " + expected + ")");
        }
    }
}
