/**
 * Several members under one load ({@code ./boxoffice bench --members N}): the stand-in for a
 * Kubernetes Service that spreads the crowd's connections over the members, the readiness
 * timeline of the members while one joins or leaves, and the report of the run.
 */
package org.boxoffice.bench.cluster;
