package io.rill.testsuite.differential;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/** Reads back the canonical verdict lines of {@link RillHttpRunner}, for the rules that explain disagreements. */
final class Verdicts {

    /** One message of an accepting verdict; method and target are empty for a response, status 0 for a request. */
    record Message(String version, String method, String target, int status, List<String[]> fields) {

        /** The values of the fields named {@code name} (lower case). */
        List<String> values(String name) {
            List<String> out = new ArrayList<>();
            for (String[] f : fields) {
                if (f[0].equals(name)) {
                    out.add(f[1]);
                }
            }
            return out;
        }

        /** Whether the connection stays open after this message (RFC 9112 §9.3). */
        boolean persistent() {
            boolean close = false;
            boolean keepAlive = false;
            for (String v : values("connection")) {
                for (String token : v.split(",")) {
                    String t = token.strip().toLowerCase(Locale.ROOT);
                    close |= t.equals("close");
                    keepAlive |= t.equals("keep-alive");
                }
            }
            return !close && (!version.equals("1.0") || keepAlive);
        }
    }

    private static final HexFormat HEX = HexFormat.of();

    private Verdicts() {
    }

    /** The messages of an accepting verdict ({@code A ...}); none for a rejecting one. */
    static List<Message> messages(String verdict) {
        List<Message> out = new ArrayList<>();
        if (!verdict.startsWith("A ")) {
            return out;
        }
        for (String m : verdict.substring(2).split(" ")) {
            if (m.equals("^")) {
                continue;
            }
            String[] parts = m.split(",", -1);
            String method = "";
            String target = "";
            int status = 0;
            int dot = parts[1].indexOf('.');
            if (dot >= 0) {
                method = text(parts[1].substring(0, dot));
                target = text(parts[1].substring(dot + 1));
            } else {
                status = Integer.parseInt(parts[1]);
            }
            List<String[]> fields = new ArrayList<>();
            for (String f : parts[2].isEmpty() ? new String[0] : parts[2].split("\\+")) {
                int eq = f.indexOf('=');
                fields.add(new String[] {text(f.substring(0, eq)), text(f.substring(eq + 1))});
            }
            out.add(new Message(parts[0], method, target, status, fields));
        }
        return out;
    }

    /** Whether a message before the last one of an accepting verdict ends its connection. */
    static boolean closesBeforeTheLast(String verdict) {
        List<Message> messages = messages(verdict);
        for (int i = 0; i < messages.size() - 1; i++) {
            if (!messages.get(i).persistent()) {
                return true;
            }
        }
        return false;
    }

    /** Whether a message of an accepting verdict ends its connection. */
    static boolean anyCloses(String verdict) {
        return messages(verdict).stream().anyMatch(m -> !m.persistent());
    }

    /** Whether two accepting verdicts begin with the same head (version, start line, fields). */
    static boolean sameFirstHead(String a, String b) {
        String[] p = a.substring(2).split(" ")[0].split(",", -1);
        String[] q = b.substring(2).split(" ")[0].split(",", -1);
        return p.length >= 3 && q.length >= 3 && (p[0] + p[1] + p[2]).equals(q[0] + q[1] + q[2]);
    }

    /** Whether two accepting verdicts have the same messages but for their bodies and trailers. */
    static boolean sameExceptBodies(String a, String b) {
        String[] x = a.substring(2).split(" ");
        String[] y = b.substring(2).split(" ");
        if (x.length != y.length) {
            return false;
        }
        for (int i = 0; i < x.length; i++) {
            String[] p = x[i].split(",", -1);
            String[] q = y[i].split(",", -1);
            if (p.length != q.length || p.length < 3 || !(p[0] + p[1] + p[2]).equals(q[0] + q[1] + q[2])) {
                return false;
            }
        }
        return true;
    }

    private static String text(String hex) {
        return new String(HEX.parseHex(hex), StandardCharsets.ISO_8859_1);
    }
}
