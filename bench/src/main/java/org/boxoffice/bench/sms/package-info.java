/**
 * The SMS outage scenario ({@code ./boxoffice bench --sms-outage}): a stub SMS provider on
 * loopback that the service's real HTTP adapter sends to ({@code SmsStub}: answering at once,
 * after 5 s, or failing until it recovers), the SMS outbox as PostgreSQL has it
 * ({@code SmsOutbox}), and each phase's figures with their ratios to the prompt phase
 * ({@code SmsPhase}, {@code SmsReport}).
 */
package org.boxoffice.bench.sms;
