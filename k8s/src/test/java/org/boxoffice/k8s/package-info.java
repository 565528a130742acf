/**
 * Checks of the Kubernetes manifests: each overlay is rendered with {@code kubectl kustomize},
 * exactly as {@code kubectl apply -k} would send it, parsed into the typed fabric8 Kubernetes
 * model, and held to what a Hazelcast grid of embedded members needs (ordered one-at-a-time
 * rollout, discovery before readiness, time to migrate partitions on shutdown, secrets kept out
 * of the ConfigMap).
 */
package org.boxoffice.k8s;
