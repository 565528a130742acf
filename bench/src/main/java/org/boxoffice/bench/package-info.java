/**
 * The flash-sale benchmark ({@code ./boxoffice bench}): command line, child processes (the service,
 * the baseline server), the shared PostgreSQL, and the order a run goes in. {@code FlashSaleBench}
 * is the run's outline; {@code SystemRun} is what every system gets alike (warm-up, sweep, measured
 * run, checks, refusal ceiling); {@code BoxofficeRun} and {@code Baselines} are the two sides;
 * {@code BotFigures} the bots of {@code --bots}; {@code RunEnvironment} the results folder, notes,
 * cleanup and the description of machine, settings and code. {@code ClusterBench} ({@code --members})
 * is the cluster bench's outline: {@code Cluster} the members behind the Service stand-in,
 * {@code ClusterRun} what its runs share, {@code ElasticRun} and {@code ScalingCurve} its other
 * scenarios.
 */
package org.boxoffice.bench;
