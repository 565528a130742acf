/**
 * The catalog side of the service: shows cached per member, seat plans turned into layouts, the
 * demo catalog, and the read endpoints (events, shows, seat maps, availability), served from this
 * member's encoded answers ({@link org.boxoffice.app.catalog.CatalogAnswers}).
 */
package org.boxoffice.app.catalog;
