/** HTTP plumbing shared by every service: JSON reading and writing, client-facing errors, the OpenAPI document. */
package org.boxoffice.app.http;
