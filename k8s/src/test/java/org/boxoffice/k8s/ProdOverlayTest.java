package org.boxoffice.k8s;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The prod overlay: three members on three nodes, external PostgreSQL, secrets kept in the cluster. */
class ProdOverlayTest {

    private final Manifests prod = Kustomize.overlay("prod");

    @Test
    void runsThreeMembers_neverTwoOnOneNode() {
        assertEquals(3, prod.members().getSpec().getReplicas());
        List<PodAffinityTerm> required = prod.memberPod().getAffinity().getPodAntiAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution();
        assertNotNull(required, "prod requires one member per node");
        assertTrue(required.stream().anyMatch(term -> "kubernetes.io/hostname".equals(term.getTopologyKey())
                && Manifests.selects(term.getLabelSelector(), prod.memberLabels())), "anti-affinity " + required);
    }

    @Test
    void devTokensAndDemoSeed_areOff() {
        assertEquals("false", prod.memberConfig("BOXOFFICE_AUTH_DEVTOKENS"));
        assertEquals("false", prod.memberConfig("BOXOFFICE_DEMO_SEED"));
    }

    /**
     * Outside demo mode a member refuses to start with mail that would only be logged (no SMTP host)
     * or the SMS simulator, unless that channel is turned off: the overlay says which, explicitly.
     */
    @Test
    void deliveryChannels_areRealOrTurnedOff_soAMemberStarts() {
        String mailOn = prod.memberConfig("BOXOFFICE_MAIL_ENABLED");
        assertTrue(mailOn.equals("false") || !prod.memberConfig().getOrDefault("BOXOFFICE_MAIL_HOST", "").isBlank(),
                "email is on without an SMTP host");
        assertTrue(List.of("off", "http").contains(prod.memberConfig("BOXOFFICE_SMS_PROVIDER")),
                "SMS is the simulator: " + prod.memberConfig("BOXOFFICE_SMS_PROVIDER"));
    }

    @Test
    void secrets_areReferencedByName_andNeverShipped() {
        assertEquals(List.of(), prod.all(Secret.class).stream().map(Manifests::describe).toList(),
                "prod must not carry secret values in Git");
        Map<String, String> expected = Map.of(
                "BOXOFFICE_DB_URL", "boxoffice-db/url",
                "BOXOFFICE_DB_USER", "boxoffice-db/user",
                "BOXOFFICE_DB_PASSWORD", "boxoffice-db/password",
                "BOXOFFICE_AUTH_SECRET", "boxoffice-auth/jwt-secret",
                "BOXOFFICE_ROOM_SECRET", "boxoffice-auth/room-secret",
                "BOXOFFICE_CHALLENGE_SECRET", "boxoffice-auth/challenge-secret",
                "BOXOFFICE_PAYMENTS_WEBHOOKSECRET", "boxoffice-payments/webhook-secret",
                "BOXOFFICE_TICKETS_SECRET", "boxoffice-auth/ticket-secret");
        expected.forEach((name, secretAndKey) -> {
            EnvVar env = prod.memberEnv(name).orElseThrow(() -> new AssertionError(name + " is not set"));
            SecretKeySelector ref = env.getValueFrom().getSecretKeyRef();
            assertEquals(secretAndKey, ref.getName() + "/" + ref.getKey(), name + " (the README tells operators these names)");
        });
    }

    @Test
    void database_isExternal() {
        assertEquals(List.of(), prod.all(Deployment.class).stream().map(Manifests::describe).toList());
        assertEquals(List.of(), prod.all(PersistentVolumeClaim.class).stream().map(Manifests::describe).toList());
    }

    @Test
    void membersGetMoreThanDevelopment() {
        var limits = prod.memberContainer().getResources().getLimits();
        var devLimits = Kustomize.overlay("dev").memberContainer().getResources().getLimits();
        assertTrue(limits.get("memory").getNumericalAmount().compareTo(devLimits.get("memory").getNumericalAmount()) > 0);
        assertTrue(limits.get("cpu").getNumericalAmount().compareTo(devLimits.get("cpu").getNumericalAmount()) > 0);
    }
}
