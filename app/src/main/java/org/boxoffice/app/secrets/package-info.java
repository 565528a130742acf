/**
 * The one rule the service's signing secrets are held to ({@link org.boxoffice.app.secrets.SecretSetting}):
 * outside demo mode each must be set, not the public demo value the shipped configuration gives it,
 * and long enough; in demo mode a public value is replaced by the demo's own. Each module's settings
 * record names its secrets with it and answers for them; {@code AppSettings} only collects.
 */
package org.boxoffice.app.secrets;
