/** Bearer-token authentication: JWT verification (HS256 or RS256) and the demo's token issuer. */
package org.boxoffice.app.auth;
