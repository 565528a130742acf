package org.boxoffice.k8s;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The prod overlay's monitoring: a ServiceMonitor that scrapes the members, a
 * PrometheusRule with the alerts that matter, and the on-sale Grafana dashboard. Every metric an
 * alert or a panel names must be one docs/operations.md lists; the app's {@code OperatorMetricsTest}
 * checks that the service exports exactly those, so a metric renamed in the code breaks the build
 * until the table, the alerts and the dashboard agree again.
 */
class MonitoringTest {

    private static final Path OPERATIONS = Kustomize.k8sDir().getParent().resolve("docs").resolve("operations.md");
    private static final Path DASHBOARD = Kustomize.k8sDir().resolve("overlays/prod/monitoring/boxoffice-onsale-dashboard.json");
    /** A code-quoted metric name at the start of a row of the metrics table, and the row's type column. */
    private static final Pattern ROW = Pattern.compile("^\\| (`boxoffice_[^|]*)\\| ([a-z]*) \\|");
    private static final Pattern QUOTED = Pattern.compile("`(boxoffice_[a-z0-9_*]+)(\\{[^`]*})?`");
    private static final Pattern METRIC = Pattern.compile("\\bboxoffice_[a-zA-Z0-9_]+");
    private static final Set<String> RULE_FIELDS = Set.of("alert", "record", "expr", "for", "keep_firing_for", "labels",
            "annotations");
    private static final Set<String> ENDPOINT_FIELDS = Set.of("port", "path", "interval", "scrapeTimeout", "scheme",
            "honorLabels", "relabelings", "metricRelabelings", "params", "tlsConfig");

    private final Manifests prod = Kustomize.overlay("prod");
    private final KubernetesSerialization serialization = new KubernetesSerialization();

    @Test
    void theServiceMonitor_scrapesTheMetricsEndpoint_ofTheServiceInFrontOfTheMembers() {
        GenericKubernetesResource monitor = prod.monitoring("ServiceMonitor", "boxoffice");
        Map<String, Object> spec = map(monitor.getAdditionalProperties().get("spec"));
        assertEquals(Set.of("selector", "endpoints"), spec.keySet());
        Map<String, String> selector = stringMap(map(spec.get("selector")).get("matchLabels"));
        List<Service> selected = prod.all(Service.class).stream()
                .filter(s -> Manifests.selects(selector, s.getMetadata().getLabels())).toList();
        assertEquals(List.of("boxoffice"), selected.stream().map(s -> s.getMetadata().getName()).toList(),
                "selects the HTTP Service only (the grid's headless Service has no http port)");
        List<Object> endpoints = list(spec.get("endpoints"));
        assertEquals(1, endpoints.size());
        Map<String, Object> endpoint = map(endpoints.get(0));
        assertTrue(ENDPOINT_FIELDS.containsAll(endpoint.keySet()), "unknown endpoint fields in " + endpoint.keySet());
        assertEquals("/observe/metrics", endpoint.get("path"));
        assertTrue(selected.get(0).getSpec().getPorts().stream().anyMatch(p -> p.getName().equals(endpoint.get("port"))),
                "the Service has the port " + endpoint.get("port"));
        assertEquals(prod.members().getMetadata().getNamespace(), monitor.getMetadata().getNamespace());
    }

    @Test
    void theRules_alertOnWhatMatters_eachWithSeverityAndSummary() {
        Map<String, Map<String, Object>> alerts = alerts();
        for (String name : List.of("BoxofficeInvariantViolated", "BoxofficeClusterNotSafe", "BoxofficeRefereeStoreErrors",
                "BoxofficeHoldLatencyHigh", "BoxofficeLatePaymentRefunds")) {
            assertTrue(alerts.containsKey(name), name + " in " + alerts.keySet());
        }
        assertTrue(alerts.get("BoxofficeInvariantViolated").get("for") == null, "an invariant violation alerts at once");
        assertEquals("10m", alerts.get("BoxofficeClusterNotSafe").get("for"));
        alerts.forEach((name, rule) -> {
            assertTrue(RULE_FIELDS.containsAll(rule.keySet()), name + ": unknown fields in " + rule.keySet());
            assertTrue(Set.of("critical", "warning").contains(stringMap(rule.get("labels")).get("severity")),
                    name + " has a severity");
            assertNotNull(stringMap(rule.get("annotations")).get("summary"), name + " has a summary");
        });
    }

    @Test
    void everyAlertExpression_namesOnlyMetricsTheServiceExports() {
        Set<String> documented = documentedSeries();
        List<String> unknown = new ArrayList<>();
        alerts().forEach((name, rule) -> unknown.addAll(unknownMetrics(name, (String) rule.get("expr"), documented)));
        assertEquals(List.of(), unknown, "metrics not listed in docs/operations.md");
    }

    @Test
    void theDashboard_isValidJson_shippedAsItIs_andEveryPanelsMetricIsExported() throws IOException {
        String json = Files.readString(DASHBOARD, StandardCharsets.UTF_8);
        Map<String, Object> dashboard = map(serialization.unmarshal(json, Map.class));
        ConfigMap shipped = prod.all(ConfigMap.class).stream()
                .filter(c -> c.getMetadata().getName().startsWith("boxoffice-dashboards")).findFirst().orElseThrow();
        assertEquals("1", shipped.getMetadata().getLabels().get("grafana_dashboard"), "Grafana's sidecar finds it");
        assertEquals(json, shipped.getData().get(DASHBOARD.getFileName().toString()));

        Set<String> documented = documentedSeries();
        List<String> unknown = new ArrayList<>();
        Set<String> titles = new TreeSet<>();
        Set<Object> ids = new TreeSet<>();
        for (Object p : list(dashboard.get("panels"))) {
            Map<String, Object> panel = map(p);
            String title = (String) panel.get("title");
            titles.add(title);
            assertTrue(ids.add(String.valueOf(panel.get("id"))), "panel ids are unique: " + panel.get("id"));
            List<Object> targets = list(panel.get("targets"));
            assertFalse(targets.isEmpty(), title + " has a query");
            for (Object t : targets) {
                unknown.addAll(unknownMetrics(title, (String) map(t).get("expr"), documented));
            }
        }
        assertEquals(List.of(), unknown, "metrics not listed in docs/operations.md");
        for (String view : List.of("Holds per second", "409 share of hold requests", "Hold latency",
                "Waiting room queue length", "Admissions per second")) {
            assertTrue(titles.contains(view), "the on-sale view shows " + view + ": " + titles);
        }
    }

    /**
     * {@code promtool check rules} on the rules, and {@code promtool test rules} with
     * {@code src/test/resources/promtool/alerts-test.yaml}: the alerts that matter fire on series
     * shaped as the service exports them and stay quiet on healthy ones. Runs when promtool is
     * installed (.ci/run installs it and checks the written rules again).
     */
    @Test
    void theRules_passPromtool_andTheAlertsThatMatterFire() throws Exception {
        Path target = Kustomize.k8sDir().resolve("target");
        Files.createDirectories(target);
        Object spec = prod.monitoring("PrometheusRule", "boxoffice").getAdditionalProperties().get("spec");
        Path rules = target.resolve("prometheus-rules.yaml");
        Files.writeString(rules, serialization.asYaml(spec), StandardCharsets.UTF_8);
        Optional<Path> promtool = Kustomize.onPath("promtool");
        org.junit.jupiter.api.Assumptions.assumeTrue(promtool.isPresent(),
                "promtool is not installed (Debian: apt-get install prometheus); .ci/run checks " + rules);
        promtool(promtool.get(), "check", "rules", rules.toString());

        // the unit tests compare annotations too: they run on the rules without them
        Map<String, Object> bare = map(serialization.unmarshal(serialization.asJson(spec), Map.class));
        for (Object group : list(bare.get("groups"))) {
            for (Object rule : list(map(group).get("rules"))) {
                map(rule).remove("annotations");
            }
        }
        Files.writeString(target.resolve("prometheus-rules-bare.yaml"), serialization.asYaml(bare), StandardCharsets.UTF_8);
        Path tests = target.resolve("prometheus-alerts-test.yaml");
        Files.copy(Kustomize.k8sDir().resolve("src/test/resources/promtool/alerts-test.yaml"), tests,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        promtool(promtool.get(), "test", "rules", tests.toString());
    }

    private static void promtool(Path promtool, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(promtool.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "promtool did not finish");
        assertEquals(0, p.exitValue(), String.join(" ", command) + "\n" + out);
    }

    private Map<String, Map<String, Object>> alerts() {
        GenericKubernetesResource rule = prod.monitoring("PrometheusRule", "boxoffice");
        Map<String, Map<String, Object>> alerts = new LinkedHashMap<>();
        for (Object group : list(map(rule.getAdditionalProperties().get("spec")).get("groups"))) {
            for (Object r : list(map(group).get("rules"))) {
                Map<String, Object> one = map(r);
                alerts.put((String) one.get("alert"), one);
            }
        }
        return alerts;
    }

    /**
     * The {@code boxoffice_} series an expression may name: every name in the metrics table of
     * docs/operations.md, plus {@code _bucket}, {@code _sum} and {@code _count} of its histograms.
     */
    private static Set<String> documentedSeries() {
        Set<String> names = new TreeSet<>();
        try {
            for (String line : Files.readAllLines(OPERATIONS, StandardCharsets.UTF_8)) {
                Matcher row = ROW.matcher(line);
                if (!row.find()) {
                    continue;
                }
                Matcher quoted = QUOTED.matcher(row.group(1));
                while (quoted.find()) {
                    String name = quoted.group(1);
                    if (name.contains("*")) {
                        continue;
                    }
                    names.add(name);
                    if (row.group(2).equals("histogram")) {
                        names.addAll(List.of(name + "_bucket", name + "_sum", name + "_count"));
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        assertTrue(names.size() > 20, "read the metrics table of " + OPERATIONS + ": " + names);
        return names;
    }

    private static List<String> unknownMetrics(String where, String expr, Set<String> documented) {
        assertNotNull(expr, where + " has an expression");
        List<String> unknown = new ArrayList<>();
        Matcher m = METRIC.matcher(expr);
        boolean any = false;
        while (m.find()) {
            any = true;
            if (!documented.contains(m.group())) {
                unknown.add(where + ": " + m.group());
            }
        }
        assertTrue(any, where + " names a Boxoffice metric: " + expr);
        return unknown;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        assertTrue(o instanceof Map, "an object: " + o);
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o) {
        assertTrue(o instanceof List, "a list: " + o);
        return (List<Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> stringMap(Object o) {
        assertTrue(o instanceof Map, "an object: " + o);
        return (Map<String, String>) o;
    }
}
