package org.boxoffice.k8s;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The dev overlay: one member, an in-cluster PostgreSQL on a volume, demo conveniences on. */
class DevOverlayTest {

    private final Manifests dev = Kustomize.overlay("dev");

    @Test
    void runsOneMember() {
        assertEquals(1, dev.members().getSpec().getReplicas());
    }

    @Test
    void devTokensAndDemoSeed_areOn() {
        assertEquals("true", dev.memberConfig("BOXOFFICE_AUTH_DEVTOKENS"));
        assertEquals("true", dev.memberConfig("BOXOFFICE_MAIL_ENABLED"), "demo mode logs the mails, as ./boxoffice run does");
        assertEquals("simulator", dev.memberConfig("BOXOFFICE_SMS_PROVIDER"));
        assertEquals("true", dev.memberConfig("BOXOFFICE_DEMO_SEED"));
    }

    @Test
    void database_isTheInClusterPostgres_keptOnAPersistentVolume() {
        Deployment postgres = dev.named(Deployment.class, "boxoffice-postgres");
        Service service = dev.named(Service.class, "boxoffice-postgres");
        assertTrue(Manifests.selects(service.getSpec().getSelector(),
                postgres.getSpec().getTemplate().getMetadata().getLabels()), "the Service does not select PostgreSQL");
        // a ReadWriteOnce volume: the old pod must release it before a new one mounts it
        assertEquals("Recreate", postgres.getSpec().getStrategy().getType());

        List<String> claims = postgres.getSpec().getTemplate().getSpec().getVolumes().stream()
                .map(Volume::getPersistentVolumeClaim)
                .filter(Objects::nonNull)
                .map(claim -> claim.getClaimName())
                .toList();
        assertEquals(1, claims.size(), "PostgreSQL's data volume");
        PersistentVolumeClaim claim = dev.named(PersistentVolumeClaim.class, claims.getFirst());
        assertNotNull(claim.getSpec().getResources().getRequests().get("storage"));

        String url = secretValue(dev.memberEnv("BOXOFFICE_DB_URL").orElseThrow());
        assertEquals("jdbc:postgresql://boxoffice-postgres:" + service.getSpec().getPorts().getFirst().getPort()
                + "/boxoffice", url);
    }

    @Test
    void everySecretReference_resolvesToAGeneratedSecretHoldingThatKey() {
        List<Container> containers = dev.allContainers().toList();
        assertTrue(containers.size() >= 2, "the member and PostgreSQL");
        for (Container container : containers) {
            for (EnvVar env : container.getEnv()) {
                if (env.getValueFrom() != null && env.getValueFrom().getSecretKeyRef() != null) {
                    SecretKeySelector ref = env.getValueFrom().getSecretKeyRef();
                    Secret secret = dev.named(Secret.class, ref.getName());
                    assertTrue(secret.getData().containsKey(ref.getKey()),
                            container.getName() + " " + env.getName() + ": no key " + ref.getKey() + " in " + ref.getName());
                }
            }
        }
    }

    @Test
    void memberAndDatabase_shareOneSetOfCredentials() {
        Container postgres = dev.named(Deployment.class, "boxoffice-postgres")
                .getSpec().getTemplate().getSpec().getContainers().getFirst();
        assertEquals(secretValue(dev.memberEnv("BOXOFFICE_DB_USER").orElseThrow()),
                secretValue(env(postgres, "POSTGRES_USER")));
        assertEquals(secretValue(dev.memberEnv("BOXOFFICE_DB_PASSWORD").orElseThrow()),
                secretValue(env(postgres, "POSTGRES_PASSWORD")));
    }

    private static EnvVar env(Container container, String name) {
        return container.getEnv().stream().filter(e -> name.equals(e.getName())).findFirst().orElseThrow();
    }

    private String secretValue(EnvVar env) {
        SecretKeySelector ref = env.getValueFrom().getSecretKeyRef();
        String encoded = dev.named(Secret.class, ref.getName()).getData().get(ref.getKey());
        return new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    }
}
