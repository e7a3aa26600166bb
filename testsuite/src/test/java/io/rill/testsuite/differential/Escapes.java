package io.rill.testsuite.differential;

/** Printable forms of raw messages and verdicts for the report. */
final class Escapes {

    private Escapes() {
    }

    /** The first {@code max} bytes of {@code b} in double quotes, CR, LF, TAB and other non-printables escaped. */
    static String quote(byte[] b, int max) {
        StringBuilder s = new StringBuilder("\"");
        for (int i = 0; i < Math.min(b.length, max); i++) {
            int c = b[i] & 0xff;
            switch (c) {
                case '\r' -> s.append("\\r");
                case '\n' -> s.append("\\n");
                case '\t' -> s.append("\\t");
                case '"', '\\' -> s.append('\\').append((char) c);
                default -> {
                    if (c < 0x20 || c >= 0x7f) {
                        s.append(String.format("\\x%02x", c));
                    } else {
                        s.append((char) c);
                    }
                }
            }
        }
        s.append('"');
        if (b.length > max) {
            s.append("... (").append(b.length).append(" bytes)");
        }
        return s.toString();
    }

    static String shorten(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "...";
    }
}
