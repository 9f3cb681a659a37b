/**
 * Auto-configuration of the thread store: in memory by default, JDBC when a
 * {@code DataSource} is present.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.thread;

import org.jspecify.annotations.NullMarked;
