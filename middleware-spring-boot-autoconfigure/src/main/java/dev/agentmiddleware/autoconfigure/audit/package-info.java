/**
 * Auto-configuration of the audit trail: one record per tool call in a store (in memory
 * here; the JDBC module contributes a table), its metrics and its section of the
 * {@code agentmiddleware} actuator endpoint.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.audit;

import org.jspecify.annotations.NullMarked;
