package io.rill.resolver.dns;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

import io.rill.handler.codec.dns.DnsNames;

/**
 * {@code /etc/hosts} (hosts(5)): an address, then a canonical name and aliases. The file is read
 * again when its modification time changes, looked at no more often than every
 * {@code recheckNanos} so that a cached resolve costs no system call. Used by one event loop only.
 */
final class HostsFile {

    private static final System.Logger LOG = System.getLogger(HostsFile.class.getName());

    private final Path path;
    private final long recheckNanos;
    private final LongSupplier clock;
    /** When the modification time was last looked at, on {@code clock}. */
    private long checkedAt;
    private boolean everChecked;
    /** The modification time the maps below were read at; null when the file was missing. */
    private FileTime readAt;
    /** Whether the file was looked at once; before that {@code readAt == null} means nothing. */
    private boolean loaded;
    /** Lower-cased name without its trailing dot to its addresses, in file order. */
    private Map<String, List<InetAddress>> v4 = Map.of();
    private Map<String, List<InetAddress>> v6 = Map.of();

    HostsFile(Path path, long recheckNanos, LongSupplier clock) {
        this.path = path;
        this.recheckNanos = recheckNanos;
        this.clock = clock;
    }

    /** The file's addresses for {@code host} of one family, or an empty list. */
    List<InetAddress> lookup(String host, boolean ipv6) {
        refreshIfChanged();
        String key = DnsNames.asciiLowerCase(host.endsWith(".") ? host.substring(0, host.length() - 1) : host);
        return (ipv6 ? v6 : v4).getOrDefault(key, List.of());
    }

    private void refreshIfChanged() {
        long now = clock.getAsLong();
        if (everChecked && now - checkedAt < recheckNanos) {
            return;
        }
        everChecked = true;
        checkedAt = now;
        FileTime mtime;
        try {
            mtime = Files.getLastModifiedTime(path);
        } catch (NoSuchFileException e) {
            mtime = null;
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot stat " + path + "; keeping what was read before", e);
            return;
        }
        if (loaded && Objects.equals(mtime, readAt)) {
            return;
        }
        loaded = true;
        readAt = mtime;
        if (mtime == null) {
            v4 = Map.of();
            v6 = Map.of();
            return;
        }
        try {
            parse(Files.readString(path, StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot read " + path + "; keeping what was read before", e);
        }
    }

    private void parse(String text) {
        Map<String, List<InetAddress>> four = new HashMap<>();
        Map<String, List<InetAddress>> six = new HashMap<>();
        for (String raw : text.split("\n")) {
            int hash = raw.indexOf('#');
            String line = (hash >= 0 ? raw.substring(0, hash) : raw).strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] words = line.split("\\s+");
            InetAddress address = IpLiterals.parse(words[0].contains("%") ? words[0].substring(0, words[0].indexOf('%')) : words[0]);
            if (address == null || words.length < 2) {
                continue;
            }
            Map<String, List<InetAddress>> target = address instanceof Inet4Address ? four : six;
            for (int i = 1; i < words.length; i++) {
                String name = DnsNames.asciiLowerCase(words[i].endsWith(".")
                        ? words[i].substring(0, words[i].length() - 1) : words[i]);
                List<InetAddress> list = target.computeIfAbsent(name, k -> new ArrayList<>(2));
                if (!list.contains(address)) {
                    list.add(address);
                }
            }
        }
        four.replaceAll((k, list) -> List.copyOf(list));
        six.replaceAll((k, list) -> List.copyOf(list));
        v4 = four;
        v6 = six;
    }
}
