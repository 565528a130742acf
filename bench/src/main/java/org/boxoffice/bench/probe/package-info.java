/**
 * Measurements beside the load: hold expiry, heap footprint (class histograms), CPU per process
 * and Flight Recorder profiles of the server.
 */
package org.boxoffice.bench.probe;
