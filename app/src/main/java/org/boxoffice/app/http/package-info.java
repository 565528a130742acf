/**
 * HTTP plumbing shared by every service: JSON reading and writing, client-facing errors, caching
 * headers and 304s, the OpenAPI document.
 */
package org.boxoffice.app.http;
