package org.boxoffice.app;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A plain {@code java -jar boxoffice.jar} opens what Hazelcast asks for, like the container image:
 * the jar manifest's {@code Add-Opens}/{@code Add-Exports} (app/pom.xml) name the same packages as
 * the Dockerfile's {@code --add-opens}/{@code --add-exports}.
 */
class LauncherFlagsTest {

    @Test
    void jarManifest_opensWhatTheContainerOpens() throws IOException {
        String dockerfile = Files.readString(Path.of("../k8s/Dockerfile"));
        String pom = Files.readString(Path.of("pom.xml"));
        for (String flag : new String[] {"opens", "exports"}) {
            Set<String> container = new TreeSet<>();
            Matcher m = Pattern.compile("--add-" + flag + " (\\S+)=ALL-UNNAMED").matcher(dockerfile);
            while (m.find()) {
                container.add(m.group(1));
            }
            assertFalse(container.isEmpty(), "the Dockerfile names no --add-" + flag);
            Matcher entry = Pattern.compile("<Add-" + capitalized(flag) + ">([^<]*)</Add-").matcher(pom);
            Set<String> manifest = new TreeSet<>();
            if (entry.find()) {
                manifest.addAll(Set.of(entry.group(1).trim().split("\\s+")));
            }
            assertEquals(container, manifest, "Add-" + capitalized(flag) + " in app/pom.xml's jar manifest");
        }
    }

    private static String capitalized(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
