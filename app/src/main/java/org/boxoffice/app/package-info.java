/**
 * The Boxoffice service: {@link org.boxoffice.app.Main} reads the configuration once into typed
 * settings, starts the database (embedded or external), the grid member and the web server, and
 * wires the HTTP services. {@link org.boxoffice.app.Boxoffice} holds the running pieces so tests
 * build exactly what production builds.
 */
package org.boxoffice.app;
