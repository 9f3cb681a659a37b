/**
 * The latency of the sample's stand-ins for remote services, injected so that tests of
 * the tools never measure the time that passed.
 */
@NullMarked
package dev.agentmiddleware.sample.latency;

import org.jspecify.annotations.NullMarked;
