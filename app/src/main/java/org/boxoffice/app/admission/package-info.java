/**
 * Flash-sale admission: the waiting room's HTTP face (join, status with long poll, admin), the
 * signed queue tokens and passes, the door's proof-of-work challenges, and the gate in front of
 * joins and holds (challenge and pass checks, velocity limits, bot refusals counted by reason).
 */
package org.boxoffice.app.admission;
