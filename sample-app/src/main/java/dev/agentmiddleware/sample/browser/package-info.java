/**
 * A simulated browser session that can crash, and its recovery by the crash-recovery
 * middleware.
 */
@NullMarked
package dev.agentmiddleware.sample.browser;

import org.jspecify.annotations.NullMarked;
