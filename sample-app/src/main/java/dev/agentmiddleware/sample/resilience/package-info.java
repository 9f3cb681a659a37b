/**
 * Tools that show retries of a flaky service and timeouts of a slow one.
 */
@NullMarked
package dev.agentmiddleware.sample.resilience;

import org.jspecify.annotations.NullMarked;
