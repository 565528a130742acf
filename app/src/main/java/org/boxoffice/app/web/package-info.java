/**
 * The fan's web app: the static assets under {@code web/} on the classpath, served at {@code /}
 * ({@link org.boxoffice.app.web.WebApp}), and the live seat-map stream they listen to
 * ({@link org.boxoffice.app.web.ShowEvents}, {@link org.boxoffice.app.web.ShowEventsService}).
 */
package org.boxoffice.app.web;
