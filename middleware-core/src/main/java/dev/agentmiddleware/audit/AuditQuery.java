package dev.agentmiddleware.audit;

import java.time.Instant;

import dev.agentmiddleware.tool.CallOutcome;
import org.jspecify.annotations.Nullable;

/**
 * Which audit records to read: filters (each {@code null} for any) and a page, newest
 * first. Immutable. <pre>{@code
 * AuditQuery query = AuditQuery.all().withTool("delete_file").withOutcome(CallOutcome.DENIED).withPage(0, 50);
 * }</pre>
 *
 * @param tool the tool's name, or {@code null} for any
 * @param principal the caller's name, or {@code null} for any
 * @param outcome the outcome, or {@code null} for any
 * @param from the earliest time (inclusive), or {@code null}
 * @param to the latest time (exclusive), or {@code null}
 * @param page the page, from 0
 * @param size the records per page, at least 1
 */
public record AuditQuery(@Nullable String tool, @Nullable String principal, @Nullable CallOutcome outcome,
		@Nullable Instant from, @Nullable Instant to, int page, int size) {

	/** The default page size. */
	public static final int DEFAULT_SIZE = 50;

	/**
	 * Validates the query.
	 */
	public AuditQuery {
		if (page < 0) {
			throw new IllegalArgumentException("page must not be negative, was " + page);
		}
		if (size < 1) {
			throw new IllegalArgumentException("size must be at least 1, was " + size);
		}
	}

	/**
	 * Every record, first page of {@value #DEFAULT_SIZE}.
	 * @return the query
	 */
	public static AuditQuery all() {
		return new AuditQuery(null, null, null, null, null, 0, DEFAULT_SIZE);
	}

	/**
	 * A copy for one tool.
	 * @param tool the tool's name, or {@code null} for any
	 * @return the changed copy
	 */
	public AuditQuery withTool(@Nullable String tool) {
		return new AuditQuery(tool, this.principal, this.outcome, this.from, this.to, this.page, this.size);
	}

	/**
	 * A copy for one caller.
	 * @param principal the caller's name, or {@code null} for any
	 * @return the changed copy
	 */
	public AuditQuery withPrincipal(@Nullable String principal) {
		return new AuditQuery(this.tool, principal, this.outcome, this.from, this.to, this.page, this.size);
	}

	/**
	 * A copy for one outcome.
	 * @param outcome the outcome, or {@code null} for any
	 * @return the changed copy
	 */
	public AuditQuery withOutcome(@Nullable CallOutcome outcome) {
		return new AuditQuery(this.tool, this.principal, outcome, this.from, this.to, this.page, this.size);
	}

	/**
	 * A copy for a time range.
	 * @param from the earliest time (inclusive), or {@code null}
	 * @param to the latest time (exclusive), or {@code null}
	 * @return the changed copy
	 */
	public AuditQuery withTime(@Nullable Instant from, @Nullable Instant to) {
		return new AuditQuery(this.tool, this.principal, this.outcome, from, to, this.page, this.size);
	}

	/**
	 * A copy for another page.
	 * @param page the page, from 0
	 * @param size the records per page
	 * @return the changed copy
	 */
	public AuditQuery withPage(int page, int size) {
		return new AuditQuery(this.tool, this.principal, this.outcome, this.from, this.to, page, size);
	}

	/**
	 * Whether a record passes the filters (the page aside).
	 * @param record the record
	 * @return {@code true} if it does
	 */
	public boolean matches(AuditRecord record) {
		return (this.tool == null || this.tool.equals(record.tool()))
				&& (this.principal == null || this.principal.equals(record.principal()))
				&& (this.outcome == null || this.outcome == record.outcome())
				&& (this.from == null || !record.time().isBefore(this.from))
				&& (this.to == null || record.time().isBefore(this.to));
	}

	/**
	 * How many records come before this page.
	 * @return the offset
	 */
	public long offset() {
		return (long) this.page * this.size;
	}

}
