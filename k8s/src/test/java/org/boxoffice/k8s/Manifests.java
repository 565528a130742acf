package org.boxoffice.k8s;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * One rendered overlay as typed Kubernetes objects, with the look-ups the tests share: the
 * member StatefulSet, its container, its environment and the ConfigMap it reads.
 */
final class Manifests {

    static final String MEMBERS = "boxoffice";
    static final String MEMBER_CONTAINER = "boxoffice";
    /** The API group of the Prometheus Operator's kinds (ServiceMonitor, PrometheusRule). */
    static final String MONITORING_API = "monitoring.coreos.com/v1";

    private final List<HasMetadata> objects;

    private Manifests(List<HasMetadata> objects) {
        this.objects = List.copyOf(objects);
    }

    static Manifests parse(String yaml) {
        Object parsed = new KubernetesSerialization().unmarshal(yaml);
        List<?> items = switch (parsed) {
            case KubernetesList list -> list.getItems();
            case List<?> list -> list;
            case HasMetadata single -> List.of(single);
            case null -> List.of();
            default -> throw new AssertionError("unexpected render: " + parsed.getClass().getName());
        };
        List<HasMetadata> objects = items.stream()
                .map(item -> {
                    if (!(item instanceof HasMetadata object)) {
                        throw new AssertionError("not a Kubernetes object: " + item);
                    }
                    return object;
                })
                .toList();
        assertTrue(objects.size() > 1, "the render holds almost nothing:\n" + yaml);
        return new Manifests(objects);
    }

    List<HasMetadata> all() {
        return objects;
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> Optional<T> find(Class<T> type, String name) {
        return all(type).stream().filter(o -> name.equals(o.getMetadata().getName())).findFirst();
    }

    <T extends HasMetadata> T named(Class<T> type, String name) {
        return find(type, name).orElseGet(() -> fail("no " + type.getSimpleName() + " named " + name + " in "
                + objects.stream().map(Manifests::describe).toList()));
    }

    /**
     * Kinds fabric8 has no model class for come back generic: the tests treat those as typos, except
     * the Prometheus Operator's, which {@code MonitoringTest} checks field by field.
     */
    List<String> untyped() {
        return objects.stream().filter(GenericKubernetesResource.class::isInstance).filter(o -> !isMonitoring(o))
                .map(Manifests::describe).toList();
    }

    static boolean isMonitoring(HasMetadata object) {
        return object instanceof GenericKubernetesResource && MONITORING_API.equals(object.getApiVersion());
    }

    /** The Prometheus Operator object of {@code kind} named {@code name}. */
    GenericKubernetesResource monitoring(String kind, String name) {
        return objects.stream().filter(Manifests::isMonitoring).map(GenericKubernetesResource.class::cast)
                .filter(o -> kind.equals(o.getKind()) && name.equals(o.getMetadata().getName())).findFirst()
                .orElseGet(() -> fail("no " + kind + " named " + name + " in " + objects.stream().map(Manifests::describe)
                        .toList()));
    }

    StatefulSet members() {
        return named(StatefulSet.class, MEMBERS);
    }

    PodSpec memberPod() {
        return members().getSpec().getTemplate().getSpec();
    }

    Map<String, String> memberLabels() {
        return members().getSpec().getTemplate().getMetadata().getLabels();
    }

    Container memberContainer() {
        return memberPod().getContainers().stream()
                .filter(c -> MEMBER_CONTAINER.equals(c.getName()))
                .findFirst()
                .orElseGet(() -> fail("the member pod has no container named " + MEMBER_CONTAINER));
    }

    /** The ConfigMap the member container loads with envFrom (its name carries kustomize's hash). */
    ConfigMap memberConfigMap() {
        List<EnvFromSource> sources = memberContainer().getEnvFrom();
        assertNotNull(sources, "the member container loads no ConfigMap with envFrom");
        List<String> names = sources.stream()
                .filter(s -> s.getConfigMapRef() != null)
                .map(s -> s.getConfigMapRef().getName())
                .toList();
        assertEquals(1, names.size(), "the member container should load exactly one ConfigMap: " + names);
        return named(ConfigMap.class, names.getFirst());
    }

    Map<String, String> memberConfig() {
        return memberConfigMap().getData();
    }

    String memberConfig(String key) {
        String value = memberConfig().get(key);
        assertNotNull(value, "the member ConfigMap does not set " + key + ": " + memberConfig().keySet());
        return value;
    }

    Optional<EnvVar> memberEnv(String name) {
        List<EnvVar> env = memberContainer().getEnv();
        return env == null ? Optional.empty() : env.stream().filter(e -> name.equals(e.getName())).findFirst();
    }

    /** The container port a probe or Service names, resolved to its number. */
    int memberPort(IntOrString port) {
        assertNotNull(port, "no port given");
        if (port.getIntVal() != null) {
            return port.getIntVal();
        }
        String name = port.getStrVal();
        return memberContainer().getPorts().stream()
                .filter(p -> name.equals(p.getName()))
                .map(ContainerPort::getContainerPort)
                .findFirst()
                .orElseGet(() -> fail("the member container has no port named " + name));
    }

    Stream<Container> allContainers() {
        return objects.stream().flatMap(Manifests::podSpec).flatMap(spec -> Stream.concat(
                spec.getInitContainers() == null ? Stream.empty() : spec.getInitContainers().stream(),
                spec.getContainers().stream()));
    }

    private static Stream<PodSpec> podSpec(HasMetadata object) {
        return switch (object) {
            case StatefulSet s -> Stream.of(s.getSpec().getTemplate().getSpec());
            case Deployment d -> Stream.of(d.getSpec().getTemplate().getSpec());
            case DaemonSet d -> Stream.of(d.getSpec().getTemplate().getSpec());
            case Job j -> Stream.of(j.getSpec().getTemplate().getSpec());
            case Pod p -> Stream.of(p.getSpec());
            default -> Stream.empty();
        };
    }

    /** Whether a label selector with only matchLabels selects pods with these labels. */
    static boolean selects(LabelSelector selector, Map<String, String> labels) {
        return selector != null && (selector.getMatchExpressions() == null || selector.getMatchExpressions().isEmpty())
                && selects(selector.getMatchLabels(), labels);
    }

    /** Whether a (Service-style) selector selects pods with these labels; an empty one selects none here. */
    static boolean selects(Map<String, String> selector, Map<String, String> labels) {
        return selector != null && !selector.isEmpty() && labels != null
                && labels.entrySet().containsAll(selector.entrySet());
    }

    static String describe(HasMetadata object) {
        return object.getKind() + "/" + object.getMetadata().getName();
    }
}
