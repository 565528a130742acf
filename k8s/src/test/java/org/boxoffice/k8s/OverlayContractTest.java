package org.boxoffice.k8s;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodAntiAffinity;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetSpec;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** What every overlay must give a grid of embedded members, checked on dev and prod alike. */
class OverlayContractTest {

    /** Environment variables that carry credentials: Secrets only, never the ConfigMap. */
    static final Set<String> SECRET_ENV = Set.of(
            "BOXOFFICE_DB_URL", "BOXOFFICE_DB_USER", "BOXOFFICE_DB_PASSWORD",
            "BOXOFFICE_AUTH_SECRET", "BOXOFFICE_AUTH_PUBLICKEY", "BOXOFFICE_ROOM_SECRET", "BOXOFFICE_CHALLENGE_SECRET",
            "BOXOFFICE_PAYMENTS_WEBHOOKSECRET", "BOXOFFICE_TICKETS_SECRET");

    private static final String GRID_SERVICE = "boxoffice-grid";
    private static final String HTTP_SERVICE = "boxoffice";

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void everyObject_isAKnownKind_withOnlyFieldsKubernetesDefines(String overlay) {
        Manifests manifests = Kustomize.overlay(overlay);
        assertEquals(List.of(), manifests.untyped(), "kinds the Kubernetes model does not know");
        List<String> unknown = new ArrayList<>();
        for (HasMetadata object : manifests.all()) {
            if (Manifests.isMonitoring(object)) {
                continue;   // MonitoringTest checks their fields
            }
            UnknownFields.in(object).forEach(field -> unknown.add(Manifests.describe(object) + " " + field));
        }
        assertEquals(List.of(), unknown, "fields Kubernetes would drop");
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void everyNamespacedObject_isInTheOverlayNamespace(String overlay) {
        Manifests manifests = Kustomize.overlay(overlay);
        String namespace = namespaceOf(manifests);
        List<String> elsewhere = manifests.all().stream()
                .filter(o -> !(o instanceof Namespace))
                .filter(o -> !namespace.equals(o.getMetadata().getNamespace()))
                .map(Manifests::describe)
                .toList();
        assertEquals(List.of(), elsewhere, "objects outside namespace " + namespace);
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void members_areAStatefulSet_thatStartsUpdatesAndStopsOneMemberAtATime(String overlay) {
        StatefulSetSpec spec = Kustomize.overlay(overlay).members().getSpec();
        assertAll(
                () -> assertEquals("OrderedReady", spec.getPodManagementPolicy()),
                // the restarted pod is listed again by every endpoint before its neighbour leaves
                () -> assertTrue(spec.getMinReadySeconds() != null && spec.getMinReadySeconds() >= 5, "minReadySeconds"),
                () -> assertEquals("RollingUpdate", spec.getUpdateStrategy().getType()),
                () -> {
                    var rolling = spec.getUpdateStrategy().getRollingUpdate();
                    if (rolling != null) {
                        // a partition above 0 would silently leave members on the old version;
                        // maxUnavailable above 1 would take several members (and their partitions) at once
                        assertTrue(rolling.getPartition() == null || rolling.getPartition() == 0, "partition");
                        assertTrue(rolling.getMaxUnavailable() == null
                                || Integer.valueOf(1).equals(rolling.getMaxUnavailable().getIntVal()), "maxUnavailable");
                    }
                },
                () -> assertSelects(spec.getSelector().getMatchLabels(), Kustomize.overlay(overlay).memberLabels()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void members_findEachOther_throughAHeadlessServiceThatPublishesNotReadyMembers(String overlay) {
        Manifests manifests = Kustomize.overlay(overlay);
        Service grid = manifests.named(Service.class, GRID_SERVICE);
        int gridPort = Integer.parseInt(manifests.memberConfig("BOXOFFICE_GRID_PORT"));
        assertAll(
                () -> assertEquals("None", grid.getSpec().getClusterIP(), "headless"),
                () -> assertEquals(Boolean.TRUE, grid.getSpec().getPublishNotReadyAddresses(),
                        "members are not ready until they have joined, so discovery must list them before"),
                () -> assertEquals(GRID_SERVICE, manifests.members().getSpec().getServiceName()),
                () -> assertSelects(grid.getSpec().getSelector(), manifests.memberLabels()),
                () -> {
                    ServicePort port = onlyPort(grid);
                    assertEquals(gridPort, port.getPort());
                    assertEquals(gridPort, manifests.memberPort(port.getTargetPort()));
                },
                () -> assertEquals("kubernetes", manifests.memberConfig("BOXOFFICE_GRID_JOIN")),
                () -> assertEquals("0.0.0.0", manifests.memberConfig("BOXOFFICE_GRID_BIND")),
                () -> assertEquals("status.podIP", fieldRef(manifests, "BOXOFFICE_GRID_PUBLIC")),
                () -> assertEquals("metadata.namespace", fieldRef(manifests, "BOXOFFICE_GRID_K8S_NAMESPACE")),
                () -> assertEquals(GRID_SERVICE + ".$(BOXOFFICE_GRID_K8S_NAMESPACE).svc.cluster.local",
                        manifests.memberEnv("BOXOFFICE_GRID_K8S_SERVICE").map(EnvVar::getValue).orElse(null)),
                () -> assertDefinedBefore(manifests, "BOXOFFICE_GRID_K8S_NAMESPACE", "BOXOFFICE_GRID_K8S_SERVICE"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void http_isServedByReadyMembersOnly_onTheServerPort(String overlay) {
        Manifests manifests = Kustomize.overlay(overlay);
        Service http = manifests.named(Service.class, HTTP_SERVICE);
        assertAll(
                () -> assertNotEquals("None", http.getSpec().getClusterIP()),
                () -> assertNotEquals(Boolean.TRUE, http.getSpec().getPublishNotReadyAddresses()),
                () -> assertSelects(http.getSpec().getSelector(), manifests.memberLabels()),
                () -> assertEquals(serverPort(manifests), manifests.memberPort(onlyPort(http).getTargetPort())));
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void probes_askTheHealthEndpoints_onTheServerPort(String overlay) {
        Manifests manifests = Kustomize.overlay(overlay);
        Container member = manifests.memberContainer();
        Probe startup = member.getStartupProbe();
        Probe liveness = member.getLivenessProbe();
        Probe readiness = member.getReadinessProbe();
        assertAll(
                () -> assertHttpGet(manifests, startup, "/observe/health/live"),
                () -> assertHttpGet(manifests, liveness, "/observe/health/live"),
                () -> assertHttpGet(manifests, readiness, "/observe/health/ready"),
                // migrations, the member's start and its join come before the web server
                () -> assertTrue(budgetSeconds(startup) >= 120,
                        "the startup probe allows only " + budgetSeconds(startup) + " s"),
                // a long GC pause or a busy migration must not get a member killed
                () -> assertTrue(budgetSeconds(liveness) >= 30,
                        "the liveness probe allows only " + budgetSeconds(liveness) + " s"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void shutdown_leavesTimeToHandPartitionsOver(String overlay) {
        Manifests manifests = Kustomize.overlay(overlay);
        Long grace = manifests.memberPod().getTerminationGracePeriodSeconds();
        assertNotNull(grace, "the default 30 s grace period is too short for partition migration");
        assertTrue(grace >= 120, "terminationGracePeriodSeconds " + grace + " < 120");

        var preStop = manifests.memberContainer().getLifecycle().getPreStop();
        assertNotNull(preStop.getExec(), "the preStop hook should be a short sleep");
        List<String> command = preStop.getExec().getCommand();
        assertEquals("sleep", command.getFirst(), "preStop " + command);
        int sleep = Integer.parseInt(command.get(1));
        assertTrue(sleep >= 1 && sleep <= 15 && sleep < grace / 4,
                "preStop sleeps " + sleep + " s of a " + grace + " s grace period");
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void discoveryRbac_grantsTheMembersReadOnlyAccessToEndpointsPodsAndServices(String overlay) {
        Manifests manifests = Kustomize.overlay(overlay);
        String account = manifests.memberPod().getServiceAccountName();
        manifests.named(ServiceAccount.class, account);

        List<RoleBinding> bindings = manifests.all(RoleBinding.class).stream()
                .filter(b -> b.getSubjects().stream().anyMatch(s -> isAccount(s, account, namespaceOf(manifests))))
                .toList();
        assertEquals(1, bindings.size(), "role bindings for service account " + account);
        RoleBinding binding = bindings.getFirst();
        assertEquals("Role", binding.getRoleRef().getKind(), "a namespaced Role, not a ClusterRole");
        Role role = manifests.named(Role.class, binding.getRoleRef().getName());

        List<PolicyRule> core = role.getRules().stream().filter(r -> r.getApiGroups().contains("")).toList();
        for (String resource : List.of("endpoints", "pods", "services")) {
            assertTrue(core.stream().anyMatch(r -> r.getResources().contains(resource)
                            && r.getVerbs().containsAll(List.of("get", "list"))),
                    "the role does not let members get and list " + resource);
        }
        List<String> verbs = role.getRules().stream().flatMap(r -> r.getVerbs().stream()).distinct().toList();
        assertTrue(Set.of("get", "list", "watch").containsAll(verbs), "discovery needs no write access: " + verbs);
        assertTrue(role.getRules().stream().noneMatch(r -> r.getResources().contains("secrets")),
                "discovery must not read Secrets");
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void disruptionBudget_letsOneMemberGoAtATime(String overlay) {
        Manifests manifests = Kustomize.overlay(overlay);
        List<PodDisruptionBudget> budgets = manifests.all(PodDisruptionBudget.class);
        assertEquals(1, budgets.size());
        var spec = budgets.getFirst().getSpec();
        assertEquals(1, spec.getMaxUnavailable().getIntVal(), "maxUnavailable");
        assertNull(spec.getMinAvailable(), "minAvailable and maxUnavailable exclude each other");
        assertSelects(spec.getSelector().getMatchLabels(), manifests.memberLabels());
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void members_areSpreadOverNodes(String overlay) {
        Manifests manifests = Kustomize.overlay(overlay);
        PodAntiAffinity antiAffinity = manifests.memberPod().getAffinity().getPodAntiAffinity();
        assertNotNull(antiAffinity, "no pod anti-affinity");
        List<PodAffinityTerm> terms = Stream.concat(
                        nullToEmpty(antiAffinity.getRequiredDuringSchedulingIgnoredDuringExecution()).stream(),
                        nullToEmpty(antiAffinity.getPreferredDuringSchedulingIgnoredDuringExecution()).stream()
                                .map(WeightedPodAffinityTerm::getPodAffinityTerm))
                .filter(Objects::nonNull)
                .toList();
        assertTrue(terms.stream().anyMatch(term -> "kubernetes.io/hostname".equals(term.getTopologyKey())
                        && Manifests.selects(term.getLabelSelector(), manifests.memberLabels())),
                "no anti-affinity keeps members of this StatefulSet apart by node: " + terms);
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void member_requestsAndLimitsCpuAndMemory_andSizesItsHeapFromTheLimit(String overlay) {
        Manifests manifests = Kustomize.overlay(overlay);
        ResourceRequirements resources = manifests.memberContainer().getResources();
        for (String resource : List.of("cpu", "memory")) {
            assertNotNull(resources.getRequests().get(resource), "no " + resource + " request");
            assertNotNull(resources.getLimits().get(resource), "no " + resource + " limit");
            assertTrue(amount(resources.getRequests().get(resource))
                    .compareTo(amount(resources.getLimits().get(resource))) <= 0, resource + " request above its limit");
        }
        // the heap is a share of the memory limit; a request below it invites the OOM killer
        assertEquals(0, amount(resources.getRequests().get("memory"))
                .compareTo(amount(resources.getLimits().get("memory"))), "memory request should equal its limit");
        assertTrue(manifests.memberConfig("JAVA_TOOL_OPTIONS").contains("-XX:MaxRAMPercentage="),
                "JAVA_TOOL_OPTIONS should size the heap from the container's memory");
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void config_comesFromTheConfigMap_andCredentialsOnlyFromSecrets(String overlay) {
        Manifests manifests = Kustomize.overlay(overlay);
        ConfigMap config = manifests.memberConfigMap();
        assertAll(
                () -> assertEquals(String.valueOf(serverPort(manifests)), config.getData().get("SERVER_PORT")),
                () -> assertEquals("0.0.0.0", config.getData().get("SERVER_HOST"),
                        "the service binds to loopback unless told otherwise; a pod must listen on its own address"),
                () -> assertEquals(List.of(), config.getData().keySet().stream().filter(SECRET_ENV::contains).toList(),
                        "credentials in the ConfigMap"),
                () -> {
                    for (String name : List.of("BOXOFFICE_DB_URL", "BOXOFFICE_DB_USER", "BOXOFFICE_DB_PASSWORD",
                            "BOXOFFICE_AUTH_SECRET", "BOXOFFICE_ROOM_SECRET", "BOXOFFICE_CHALLENGE_SECRET",
                            "BOXOFFICE_PAYMENTS_WEBHOOKSECRET", "BOXOFFICE_TICKETS_SECRET")) {
                        EnvVar env = manifests.memberEnv(name).orElseGet(() -> fail(name + " is not set"));
                        assertNull(env.getValue(), name + " is written in the manifest");
                        assertNotNull(env.getValueFrom().getSecretKeyRef(), name + " does not come from a Secret");
                        assertNotEquals(Boolean.TRUE, env.getValueFrom().getSecretKeyRef().getOptional(),
                                name + " must not be optional: a member without it must not start");
                    }
                });
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void seatWrites_needAMajorityOfTheMembers(String overlay) {
        Manifests manifests = Kustomize.overlay(overlay);
        int replicas = manifests.members().getSpec().getReplicas();
        assertEquals(replicas / 2 + 1, Integer.parseInt(manifests.memberConfig("BOXOFFICE_GRID_QUORUM")),
                "split-brain protection for " + replicas + " members");
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void prometheus_scrapesTheMetricsEndpoint(String overlay) {
        Manifests manifests = Kustomize.overlay(overlay);
        Map<String, String> annotations = manifests.members().getSpec().getTemplate().getMetadata().getAnnotations();
        assertAll(
                () -> assertEquals("true", annotations.get("prometheus.io/scrape")),
                () -> assertEquals(String.valueOf(serverPort(manifests)), annotations.get("prometheus.io/port")),
                () -> assertEquals("/observe/metrics", annotations.get("prometheus.io/path")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void gridPort_isOpenOnlyToBoxofficePods(String overlay) {
        Manifests manifests = Kustomize.overlay(overlay);
        int gridPort = Integer.parseInt(manifests.memberConfig("BOXOFFICE_GRID_PORT"));
        List<NetworkPolicy> policies = manifests.all(NetworkPolicy.class).stream()
                .filter(p -> Manifests.selects(p.getSpec().getPodSelector(), manifests.memberLabels()))
                .toList();
        assertEquals(1, policies.size(), "network policies for the members");
        List<NetworkPolicyIngressRule> gridRules = policies.getFirst().getSpec().getIngress().stream()
                .filter(rule -> isEmpty(rule.getPorts())
                        || rule.getPorts().stream().anyMatch(p -> Integer.valueOf(gridPort).equals(p.getPort().getIntVal())))
                .toList();
        assertFalse(gridRules.isEmpty(), "members could not reach each other");
        for (NetworkPolicyIngressRule rule : gridRules) {
            // no peers listed means every pod and address
            assertFalse(isEmpty(rule.getFrom()), "port " + gridPort + " is open to every pod and address");
            assertTrue(rule.getFrom().stream().allMatch(peer -> peer.getPodSelector() != null
                            && peer.getIpBlock() == null && peer.getNamespaceSelector() == null
                            && Manifests.selects(peer.getPodSelector(), manifests.memberLabels())),
                    "port " + gridPort + " is open beyond the members' own kind: " + rule.getFrom());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void member_runsAsNonRootWithoutPrivileges(String overlay) {
        Manifests manifests = Kustomize.overlay(overlay);
        var pod = manifests.memberPod().getSecurityContext();
        var container = manifests.memberContainer().getSecurityContext();
        assertAll(
                () -> assertEquals(Boolean.TRUE, pod.getRunAsNonRoot()),
                () -> assertEquals(Boolean.FALSE, container.getAllowPrivilegeEscalation()),
                () -> assertEquals(List.of("ALL"), container.getCapabilities().getDrop()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void memberImage_isPinnedToAVersion(String overlay) {
        String image = Kustomize.overlay(overlay).memberContainer().getImage();
        String tag = image.substring(image.lastIndexOf('/') + 1);
        assertTrue(tag.contains(":") && !tag.endsWith(":latest"), "unpinned image " + image);
    }

    static String namespaceOf(Manifests manifests) {
        List<Namespace> namespaces = manifests.all(Namespace.class);
        assertEquals(1, namespaces.size(), "the overlay should create its namespace");
        return namespaces.getFirst().getMetadata().getName();
    }

    private static boolean isAccount(Subject subject, String account, String namespace) {
        return "ServiceAccount".equals(subject.getKind()) && account.equals(subject.getName())
                && namespace.equals(subject.getNamespace());
    }

    private static int serverPort(Manifests manifests) {
        return Integer.parseInt(manifests.memberConfig("SERVER_PORT"));
    }

    private static ServicePort onlyPort(Service service) {
        assertEquals(1, service.getSpec().getPorts().size(), "ports of " + service.getMetadata().getName());
        return service.getSpec().getPorts().getFirst();
    }

    private static String fieldRef(Manifests manifests, String name) {
        EnvVar env = manifests.memberEnv(name).orElseGet(() -> fail(name + " is not set"));
        assertNotNull(env.getValueFrom(), name + " should come from the downward API");
        return env.getValueFrom().getFieldRef().getFieldPath();
    }

    /** Kubernetes expands $(NAME) only with variables listed earlier in env. */
    private static void assertDefinedBefore(Manifests manifests, String earlier, String later) {
        List<String> names = manifests.memberContainer().getEnv().stream().map(EnvVar::getName).toList();
        assertTrue(names.indexOf(earlier) >= 0 && names.indexOf(earlier) < names.indexOf(later),
                earlier + " must come before " + later + " in env: " + names);
    }

    private static void assertHttpGet(Manifests manifests, Probe probe, String path) {
        assertNotNull(probe, "missing probe for " + path);
        HTTPGetAction get = probe.getHttpGet();
        assertNotNull(get, "not an HTTP probe: " + probe);
        assertEquals(path, get.getPath());
        assertEquals(serverPort(manifests), manifests.memberPort(get.getPort()), "port of the probe on " + path);
    }

    private static int budgetSeconds(Probe probe) {
        int period = probe.getPeriodSeconds() == null ? 10 : probe.getPeriodSeconds();
        int failures = probe.getFailureThreshold() == null ? 3 : probe.getFailureThreshold();
        int delay = probe.getInitialDelaySeconds() == null ? 0 : probe.getInitialDelaySeconds();
        return delay + period * failures;
    }

    private static BigDecimal amount(Quantity quantity) {
        return quantity.getNumericalAmount();
    }

    private static void assertSelects(Map<String, String> selector, Map<String, String> labels) {
        assertTrue(Manifests.selects(selector, labels), "selector " + selector + " does not match the member labels " + labels);
    }

    private static boolean isEmpty(List<?> list) {
        return list == null || list.isEmpty();
    }

    private static <T> List<T> nullToEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }
}
