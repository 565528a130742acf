/** After-run checks against PostgreSQL, the referee: what buyers were told must be what it holds. */
package org.boxoffice.bench.check;
