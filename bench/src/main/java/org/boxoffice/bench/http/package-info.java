/**
 * The bench's HTTP side: a lean keep-alive HTTP/1.1 connection for the load, and the set-up calls
 * (tokens, shows, readiness) it makes on Boxoffice.
 */
package org.boxoffice.bench.http;
