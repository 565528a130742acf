package org.boxoffice.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The typo finder the manifest checks rely on, shown to find typos deep inside a pod template. */
class UnknownFieldsTest {

    private static final String STATEFUL_SET = """
            apiVersion: apps/v1
            kind: StatefulSet
            metadata:
              name: boxoffice
            spec:
              serviceName: boxoffice-grid
              selector:
                matchLabels: {app: boxoffice}
              template:
                metadata:
                  labels: {app: boxoffice}
                spec:
                  containers:
                    - name: boxoffice
                      image: boxoffice:0.1.0
                      readinessProbe:
                        httpGet: {path: /observe/health/ready, port: http}
                        %s: 5
            """;

    @Test
    void finds_aMisspeltFieldInAProbe() {
        HasMetadata set = new KubernetesSerialization().unmarshal(STATEFUL_SET.formatted("periodSecond"));
        assertEquals(List.of("spec.template.spec.containers[0].readinessProbe: [periodSecond]"), UnknownFields.in(set));
    }

    @Test
    void findsNothing_whenEveryFieldIsKnown() {
        HasMetadata set = new KubernetesSerialization().unmarshal(STATEFUL_SET.formatted("periodSeconds"));
        assertEquals(List.of(), UnknownFields.in(set));
    }
}
