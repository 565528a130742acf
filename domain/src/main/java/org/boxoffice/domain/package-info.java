/**
 * The seat state machine and the rules around it: states as types, inventory blocks as immutable
 * values, holds, account allowances, show layouts and seat picking, and what became of a request
 * the business may refuse ({@link org.boxoffice.domain.Outcome}). Plain Java; nothing here
 * knows about the grid, HTTP or the database, so every rule is testable with JUnit alone.
 */
package org.boxoffice.domain;
