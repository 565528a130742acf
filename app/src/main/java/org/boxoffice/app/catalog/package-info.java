/**
 * The catalog side of the service: shows cached per member, seat plans turned into layouts, the
 * demo catalog, and the read endpoints (events, shows, seat maps, availability).
 */
package org.boxoffice.app.catalog;
