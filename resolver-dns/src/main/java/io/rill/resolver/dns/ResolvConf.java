package io.rill.resolver.dns;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code /etc/resolv.conf} says (resolv.conf(5)): up to three {@code nameserver}s, the
 * {@code search} list (or {@code domain}, whichever comes last), and the options {@code ndots},
 * {@code timeout}, {@code attempts} and {@code rotate}, clamped as glibc clamps them. Unknown lines
 * are ignored, as the C library ignores them.
 *
 * @param nameservers the servers, port 53; 127.0.0.1 when the file names none
 * @param search the search domains, absolute
 * @param ndots names with fewer dots are tried with the search list first (1 by default, at most 15)
 * @param timeout how long one attempt waits (5 s by default, at most 30 s)
 * @param attempts how many rounds over the servers (2 by default, at most 5)
 * @param rotate whether each query starts at the next server
 */
public record ResolvConf(List<InetSocketAddress> nameservers, List<String> search, int ndots, Duration timeout,
        int attempts, boolean rotate) {

    /** glibc's MAXNS. */
    private static final int MAX_NAMESERVERS = 3;

    /**
     * Copies the lists.
     *
     * @param nameservers the servers, port 53; 127.0.0.1 when the file names none
     * @param search the search domains, absolute
     * @param ndots names with fewer dots are tried with the search list first (1 by default, at most 15)
     * @param timeout how long one attempt waits (5 s by default, at most 30 s)
     * @param attempts how many rounds over the servers (2 by default, at most 5)
     * @param rotate whether each query starts at the next server
     */
    public ResolvConf {
        nameservers = List.copyOf(nameservers);
        search = List.copyOf(search);
    }

    /**
     * Reads {@code path}; a missing file gives the defaults, as in the C library.
     *
     * @param path the file, usually {@code /etc/resolv.conf}
     * @return its settings
     * @throws IOException if it exists but cannot be read
     */
    public static ResolvConf read(Path path) throws IOException {
        try {
            return parse(Files.readString(path, StandardCharsets.ISO_8859_1));
        } catch (NoSuchFileException e) {
            return parse("");
        }
    }

    /**
     * Parses a resolv.conf text.
     *
     * @param text the file's content
     * @return its settings
     */
    public static ResolvConf parse(String text) {
        List<InetSocketAddress> servers = new ArrayList<>();
        List<String> search = new ArrayList<>();
        int ndots = 1;
        int timeout = 5;
        int attempts = 2;
        boolean rotate = false;
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            String[] words = line.split("\\s+");
            switch (words[0]) {
                case "nameserver" -> {
                    if (words.length > 1 && servers.size() < MAX_NAMESERVERS) {
                        InetAddress address = literal(words[1]);
                        if (address != null) {
                            servers.add(new InetSocketAddress(address, 53));
                        }
                    }
                }
                case "search", "domain" -> {
                    search.clear();
                    for (int i = 1; i < words.length && !words[i].startsWith("#"); i++) {
                        search.add(words[i].endsWith(".") ? words[i] : words[i] + '.');
                    }
                }
                case "options" -> {
                    for (int i = 1; i < words.length; i++) {
                        String w = words[i];
                        if (w.equals("rotate")) {
                            rotate = true;
                        } else if (w.startsWith("ndots:")) {
                            ndots = clamp(w.substring(6), 0, 15, ndots);
                        } else if (w.startsWith("timeout:")) {
                            timeout = clamp(w.substring(8), 1, 30, timeout);
                        } else if (w.startsWith("attempts:")) {
                            attempts = clamp(w.substring(9), 1, 5, attempts);
                        }
                    }
                }
                default -> {
                    // sortlist, lookup and the rest: not ours to apply.
                }
            }
        }
        if (servers.isEmpty()) {
            servers.add(new InetSocketAddress(InetAddress.getLoopbackAddress(), 53));
        }
        return new ResolvConf(servers, search, ndots, Duration.ofSeconds(timeout), attempts, rotate);
    }

    private static int clamp(String value, int min, int max, int fallback) {
        try {
            return Math.max(min, Math.min(max, Integer.parseInt(value)));
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** An IP literal, or null; never a lookup (a name is not allowed here). */
    private static InetAddress literal(String s) {
        int zone = s.indexOf('%');
        String bare = zone >= 0 ? s.substring(0, zone) : s;
        return IpLiterals.parse(bare);
    }
}
