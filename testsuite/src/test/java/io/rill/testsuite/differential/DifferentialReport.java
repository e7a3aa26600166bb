package io.rill.testsuite.differential;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts the entries of a differential run per {@link Category} and, inside each, per group (the
 * known disagreement that explains it, or the reason a parser gave), keeping the first examples of
 * each group. Only two categories need an explanation: Rill accepting what both others refuse, and
 * Rill accepting with fields neither other parser reads the same way.
 */
final class DifferentialReport {

    /** Where an entry lands. */
    enum Category {
        AGREE_ALL("all three accept, same fields"),
        AGREE_ONE("Rill accepts, one other agrees; the third refuses or differs"),
        REJECT_ALL("all three reject"),
        RILL_STRICTER("Rill rejects, another accepts"),
        RILL_LAXER("Rill accepts, both others reject"),
        FIELDS_DIFFER("all accepting parsers differ in fields");

        final String title;

        Category(String title) {
            this.title = title;
        }

        boolean needsExplanation() {
            return this == RILL_LAXER || this == FIELDS_DIFFER;
        }
    }

    /** One example: its index in the corpus, its bytes and the three verdicts. */
    record Example(int index, HttpCorpus.Entry entry, String rill, String llhttp, String h11) {
    }

    private static final int KEPT_EXAMPLES = 5;

    private final Map<Category, Long> counts = new EnumMap<>(Category.class);
    private final Map<Category, Map<String, Long>> groupCounts = new EnumMap<>(Category.class);
    private final Map<Category, Map<String, List<Example>>> examples = new EnumMap<>(Category.class);
    private long unexplained;

    /** Classifies one entry. */
    void add(int index, HttpCorpus.Entry entry, String rill, String llhttp, String h11) {
        Category c = categorize(rill, llhttp, h11);
        String group;
        if (c == Category.AGREE_ALL || c == Category.REJECT_ALL) {
            group = "";
        } else {
            String known = KnownDisagreements.explain(c, entry, rill, llhttp, h11);
            if (known == null && c.needsExplanation()) {
                unexplained++;
                group = "UNEXPLAINED " + describe(c, rill, llhttp, h11);
            } else {
                group = known != null ? known : describe(c, rill, llhttp, h11);
            }
        }
        counts.merge(c, 1L, Long::sum);
        groupCounts.computeIfAbsent(c, k -> new LinkedHashMap<>()).merge(group, 1L, Long::sum);
        List<Example> kept = examples.computeIfAbsent(c, k -> new LinkedHashMap<>()).computeIfAbsent(group, k -> new ArrayList<>());
        if (kept.size() < KEPT_EXAMPLES) {
            kept.add(new Example(index, entry, rill, llhttp, h11));
        }
    }

    static Category categorize(String rill, String llhttp, String h11) {
        boolean r = rill.startsWith("A ");
        boolean l = llhttp.startsWith("A ");
        boolean h = h11.startsWith("A ");
        if (!r) {
            return l || h ? Category.RILL_STRICTER : Category.REJECT_ALL;
        }
        boolean lSame = l && llhttp.equals(rill);
        boolean hSame = h && h11.equals(rill);
        if (lSame && hSame) {
            return Category.AGREE_ALL;
        }
        if (lSame || hSame) {
            return Category.AGREE_ONE;
        }
        return l || h ? Category.FIELDS_DIFFER : Category.RILL_LAXER;
    }

    /** A group name for a disagreement no rule names: who accepted, and the reasons of who refused. */
    private static String describe(Category c, String rill, String llhttp, String h11) {
        if (c == Category.RILL_STRICTER) {
            return "Rill: " + reason(rill) + " | accepted by " + (llhttp.startsWith("A ") ? "llhttp" : "")
                    + (h11.startsWith("A ") ? " h11" : "");
        }
        if (c == Category.AGREE_ONE) {
            return llhttp.equals(rill) ? "h11 " + verdictKind(h11) : "llhttp " + verdictKind(llhttp);
        }
        return "llhttp " + verdictKind(llhttp) + " | h11 " + verdictKind(h11);
    }

    private static String verdictKind(String verdict) {
        return verdict.startsWith("A ") ? "reads other fields" : "rejects: " + reason(verdict);
    }

    /** A reason without the quoted input and numbers, so that like reasons group together. */
    private static String reason(String verdict) {
        String r = verdict.substring(2);
        int cut = r.indexOf('"');
        if (cut >= 0) {
            r = r.substring(0, cut);
        }
        r = r.replaceAll(" in (HTTP/|[A-Z]+ ).*$", "").replaceAll("[0-9]+", "N").replaceAll(" in $", "").strip();
        return r.length() > 70 ? r.substring(0, 70) : r;
    }

    long count(Category c) {
        return counts.getOrDefault(c, 0L);
    }

    long unexplained() {
        return unexplained;
    }

    /** The number of entries of each group of {@code c}. */
    Map<String, Long> groups(Category c) {
        return groupCounts.getOrDefault(c, Map.of());
    }

    /** Counts per category, then each group with its first {@code shown} examples. */
    void print(PrintStream out, int shown) {
        for (Category c : Category.values()) {
            out.printf("%-14s %9d  %s%n", c, count(c), c.title);
        }
        out.printf("%-14s %9d  disagreements no test explains%n", "UNEXPLAINED", unexplained);
        for (Category c : Category.values()) {
            if (c == Category.AGREE_ALL || c == Category.REJECT_ALL || !groupCounts.containsKey(c)) {
                continue;
            }
            out.printf("%n== %s: %s%n", c, c.title);
            groupCounts.get(c).entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .forEach(g -> {
                        out.printf("  %8d  %s%n", g.getValue(), g.getKey());
                        examples.get(c).get(g.getKey()).stream().limit(shown).forEach(e -> printExample(out, e));
                    });
        }
    }

    private static void printExample(PrintStream out, Example e) {
        out.printf("            #%d %s%s%n", e.index(), e.entry().requestMethod().equals("-") ? "" : "(answers "
                + e.entry().requestMethod() + ") ", Escapes.quote(e.entry().bytes(), 240));
        out.printf("              rill:   %s%n", Escapes.shorten(e.rill(), 200));
        out.printf("              llhttp: %s%n", Escapes.shorten(e.llhttp(), 200));
        out.printf("              h11:    %s%n", Escapes.shorten(e.h11(), 200));
    }
}
