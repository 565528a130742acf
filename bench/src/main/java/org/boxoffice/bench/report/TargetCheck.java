package org.boxoffice.bench.report;

/**
 * One target of a scenario and how this run did.
 *
 * @param met null when the run could not measure it
 */
public record TargetCheck(String target, String goal, String measured, Boolean met) {
}
