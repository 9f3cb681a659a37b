/**
 * The <b>audit trail</b>: one {@link dev.agentmiddleware.audit.AuditRecord} per tool
 * call, on every path and for every outcome, built once by the
 * {@link dev.agentmiddleware.audit.AuditTrail} observer from the call record and written
 * off the call's path, in batches, to an {@link dev.agentmiddleware.audit.AuditStore}.
 */
@NullMarked
package dev.agentmiddleware.audit;

import org.jspecify.annotations.NullMarked;
