package org.boxoffice.app;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README and the pages under {@code docs/} link only inside the repository, and every relative
 * link (with its {@code #anchor}, if any) resolves: a clone never carries a broken link.
 */
class DocsLinksTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*)$");

    @Test
    void everyRelativeLinkInTheReadmeAndDocs_resolvesInsideTheRepository() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            for (String target : links(page)) {
                String problem = check(page, target);
                if (problem != null) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (" + problem + ")");
                }
            }
        }
        assertEquals(List.of(), broken);
    }

    @Test
    void readme_isShortEnoughToReadInFiveMinutes() throws IOException {
        long lines = Files.readAllLines(ROOT.resolve("README.md")).size();
        assertTrue(lines < 200, "README.md has " + lines + " lines; the depth belongs in docs/");
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** Links outside fenced code blocks and inline code. */
    private static List<String> links(Path page) throws IOException {
        List<String> links = new ArrayList<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(page)) {
            if (line.stripLeading().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher m = LINK.matcher(line.replaceAll("`[^`]*`", ""));
            while (m.find()) {
                links.add(m.group(1));
            }
        }
        return links;
    }

    private static String check(Path page, String target) throws IOException {
        if (target.startsWith("http://localhost") || target.startsWith("http://127.0.0.1")) {
            return null; // the running demo
        }
        if (target.matches("^[a-zA-Z][a-zA-Z+.-]*:.*")) {
            return "leaves the repository";
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!resolved.startsWith(ROOT)) {
            return "points outside the repository";
        }
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (anchor != null && resolved.toString().endsWith(".md") && !anchors(resolved).contains(anchor)) {
            return "no such heading";
        }
        return null;
    }

    /** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
    private static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new HashSet<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(page)) {
            if (line.stripLeading().startsWith("```")) {
                fenced = !fenced;
            }
            Matcher m = HEADING.matcher(line);
            if (!fenced && m.matches()) {
                String slug = m.group(1).trim().toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
                String unique = slug;
                for (int n = 1; !anchors.add(unique); n++) {
                    unique = slug + "-" + n;
                }
            }
        }
        return anchors;
    }
}
