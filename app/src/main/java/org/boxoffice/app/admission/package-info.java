/**
 * Flash-sale admission: the waiting room's HTTP face (join, status with long poll, admin), the
 * signed queue tokens and passes, and the gate in front of holds (pass checks, rate limits).
 */
package org.boxoffice.app.admission;
