package org.boxoffice.app.ops;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names the metrics table of {@code docs/operations.md} lists: the code-quoted names
 * that start with {@code boxoffice_} in the table's first column, without their label lists
 * ({@code boxoffice_refunds_total{kind}} is {@code boxoffice_refunds_total}). A name holding
 * {@code *} stands for every name it matches. The manifest tests read the same table the same way
 * (k8s/.../MonitoringTest), so a metric renamed in the code fails here until the table is updated,
 * and there until the alerts and the dashboard are. Test code.
 */
public final class DocumentedMetrics {

    public static final Path OPERATIONS = Path.of("..", "docs", "operations.md");
    private static final Pattern NAME = Pattern.compile("`(boxoffice_[a-z0-9_*]+)(\\{[^`]*})?`");

    private DocumentedMetrics() {
    }

    public static Set<String> names() {
        Set<String> names = new TreeSet<>();
        try {
            for (String line : Files.readAllLines(OPERATIONS)) {
                if (!line.startsWith("| `boxoffice_")) {
                    continue;
                }
                Matcher m = NAME.matcher(line.substring(0, line.indexOf('|', 1)));
                while (m.find()) {
                    names.add(m.group(1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }

    /** Whether {@code name} is one of {@code documented}, or matches one holding {@code *}. */
    public static boolean covers(Set<String> documented, String name) {
        for (String d : documented) {
            if (d.equals(name) || (d.contains("*") && name.matches(Pattern.quote(d).replace("*", "\\E[a-z0-9_]*\\Q")))) {
                return true;
            }
        }
        return false;
    }
}
