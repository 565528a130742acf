/**
 * Offline gates: codes signed with a show's Ed25519 key ({@link org.boxoffice.app.gates.SignedCodes}) and
 * the pure check a gate runs without the network ({@link org.boxoffice.app.gates.OfflineVerifier}).
 * Nothing here reads a clock, a database or the network.
 */
package org.boxoffice.app.gates;
