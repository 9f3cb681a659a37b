package dev.agentmiddleware.autoconfigure.approval.web;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;

import dev.agentmiddleware.audit.AuditQuery;
import dev.agentmiddleware.audit.AuditRecord;
import dev.agentmiddleware.audit.AuditStore;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ClientRequest;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * The audit trail's REST API, under {@code agent.middleware.audit.web.path} (default
 * {@code /agent/audit}), for users with the auditor role only (served with Spring
 * Security only):
 * <ul>
 * <li>{@code GET {path}?tool=&principal=&outcome=&from=&to=&page=0&size=50}: one page of
 * records, newest first ({@code outcome} as {@code denied} or {@code DENIED},
 * {@code from}/{@code to} as ISO-8601 instants, {@code size} at most
 * {@value #MAX_SIZE});</li>
 * <li>{@code GET {path}/export} with the same filters: every matching record, one JSON
 * object a line ({@code application/x-ndjson}), for a SIEM.</li>
 * </ul>
 * A record holds the session's fingerprint, never its id, and the SHA-256 of the
 * arguments, never their values (except the redacted arguments of the tools listed in
 * {@code agent.middleware.audit.include-arguments}), and the requests the tool made to
 * its client with how each ended, never what was asked or answered:
 * {@code "clientRequests":[{"kind":"elicitation","outcome":"accept","durationMs":5230.114}]}.
 */
@RestController
public class AuditController {

	/** The largest page. */
	public static final int MAX_SIZE = 500;

	private static final MediaType NDJSON = MediaType.parseMediaType("application/x-ndjson");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final AuditStore store;

	/**
	 * Creates the controller.
	 * @param store the audit store to read
	 */
	public AuditController(AuditStore store) {
		this.store = store;
	}

	/**
	 * One page of records.
	 * @param tool the tool, or {@code null} for any
	 * @param principal the caller, or {@code null} for any
	 * @param outcome the outcome, or {@code null} for any
	 * @param from the earliest time, or {@code null}
	 * @param to the latest time (exclusive), or {@code null}
	 * @param page the page, from 0
	 * @param size the records per page
	 * @return the page
	 */
	@GetMapping(path = "${agent.middleware.audit.web.path:/agent/audit}", produces = MediaType.APPLICATION_JSON_VALUE)
	public AuditPage records(@RequestParam(required = false) @Nullable String tool,
			@RequestParam(required = false) @Nullable String principal,
			@RequestParam(required = false) @Nullable String outcome,
			@RequestParam(required = false) @Nullable String from, @RequestParam(required = false) @Nullable String to,
			@RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "50") int size) {
		if (page < 0 || size < 1 || size > MAX_SIZE) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
					"page must be 0 or more and size between 1 and " + MAX_SIZE);
		}
		AuditQuery query = query(tool, principal, outcome, from, to).withPage(page, size);
		return new AuditPage(page, size, this.store.find(query).stream().map(AuditEntry::of).toList());
	}

	/**
	 * Every matching record as JSON Lines.
	 * @param tool the tool, or {@code null} for any
	 * @param principal the caller, or {@code null} for any
	 * @param outcome the outcome, or {@code null} for any
	 * @param from the earliest time, or {@code null}
	 * @param to the latest time (exclusive), or {@code null}
	 * @return the stream of lines
	 */
	@GetMapping(path = "${agent.middleware.audit.web.path:/agent/audit}/export")
	public ResponseEntity<StreamingResponseBody> export(@RequestParam(required = false) @Nullable String tool,
			@RequestParam(required = false) @Nullable String principal,
			@RequestParam(required = false) @Nullable String outcome,
			@RequestParam(required = false) @Nullable String from,
			@RequestParam(required = false) @Nullable String to) {
		AuditQuery query = query(tool, principal, outcome, from, to);
		StreamingResponseBody body = (OutputStream out) -> {
			// Pages up to a fixed end, so that records written meanwhile shift no page
			AuditQuery pages = query.withTime(query.from(), (query.to() != null) ? query.to() : Instant.now())
				.withPage(0, MAX_SIZE);
			List<AuditRecord> records;
			do {
				records = this.store.find(pages);
				for (AuditRecord record : records) {
					out.write(JSON.writeValueAsBytes(AuditEntry.of(record)));
					out.write('\n');
				}
				pages = pages.withPage(pages.page() + 1, MAX_SIZE);
			}
			while (records.size() == MAX_SIZE);
			out.flush();
		};
		return ResponseEntity.ok().contentType(NDJSON).body(body);
	}

	private static AuditQuery query(@Nullable String tool, @Nullable String principal, @Nullable String outcome,
			@Nullable String from, @Nullable String to) {
		return AuditQuery.all()
			.withTool(tool)
			.withPrincipal(principal)
			.withOutcome(outcome(outcome))
			.withTime(instant("from", from), instant("to", to));
	}

	private static @Nullable CallOutcome outcome(@Nullable String outcome) {
		if (outcome == null || outcome.isBlank()) {
			return null;
		}
		try {
			return CallOutcome.valueOf(outcome.strip().toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "outcome is not one of the call outcomes");
		}
	}

	private static @Nullable Instant instant(String name, @Nullable String value) {
		if (value == null || value.isBlank()) {
			return null;
		}
		try {
			return Instant.parse(value.strip());
		}
		catch (DateTimeParseException ex) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
					name + " must be an ISO-8601 instant, such as 2026-11-27T10:00:00Z");
		}
	}

	/**
	 * One page of the audit trail.
	 *
	 * @param page the page, from 0
	 * @param size the records per page
	 * @param records the records, newest first
	 */
	public record AuditPage(int page, int size, List<AuditEntry> records) {

	}

	/**
	 * One audit record as the API shows it.
	 *
	 * @param time when the call started (ISO-8601)
	 * @param callId the call's id
	 * @param tool the tool
	 * @param source where the call came from ({@code mcp}, {@code spring_ai},
	 * {@code java}, {@code other})
	 * @param principal the caller, or {@code null}
	 * @param sessionFingerprint the session's fingerprint, or {@code null}
	 * @param traceId the trace id, or {@code null}
	 * @param outcome the outcome, such as {@code rate_limited}
	 * @param decidedBy the layer that decided it, or {@code null} when the tool ran
	 * @param approvalRequestId the approval request involved, or {@code null}
	 * @param approvalGrantedBy who granted the session grant that let the call through,
	 * or {@code null}
	 * @param durationMs how long the call took, in milliseconds
	 * @param argumentsDigest the SHA-256 of the arguments' canonical JSON
	 * @param arguments the redacted arguments of a tool that includes them, or
	 * {@code null}
	 * @param resultSize the result's size, or {@code null}
	 * @param clientRequests the requests the tool made to its client, in order; empty
	 * when it made none
	 */
	public record AuditEntry(String time, String callId, String tool, String source, @Nullable String principal,
			@Nullable String sessionFingerprint, @Nullable String traceId, String outcome, @Nullable String decidedBy,
			@Nullable String approvalRequestId, @Nullable String approvalGrantedBy, double durationMs,
			String argumentsDigest, @Nullable String arguments, @Nullable Long resultSize,
			List<ClientRequestEntry> clientRequests) {

		static AuditEntry of(AuditRecord record) {
			return new AuditEntry(record.time().toString(), record.callId(), record.tool(),
					record.source().name().toLowerCase(Locale.ROOT), record.principal(), record.sessionFingerprint(),
					record.traceId(), record.outcome().tagValue(), record.decidedBy(), record.approvalRequestId(),
					record.approvalGrantedBy(), millis(record.duration()), record.argumentsDigest(), record.arguments(),
					record.resultSize(), record.clientRequests().stream().map(ClientRequestEntry::of).toList());
		}

	}

	/**
	 * One request a tool made to its client, as the API shows it.
	 *
	 * @param kind {@code elicitation} or {@code sampling}
	 * @param outcome how it ended: {@code accept}, {@code decline}, {@code cancel},
	 * {@code answered}, {@code unavailable}, {@code cancelled} or {@code failed}
	 * @param durationMs how long the tool waited for it, in milliseconds
	 */
	public record ClientRequestEntry(String kind, String outcome, double durationMs) {

		static ClientRequestEntry of(ClientRequest request) {
			return new ClientRequestEntry(request.kind().tagValue(), request.outcome().tagValue(),
					millis(request.duration()));
		}

	}

	private static double millis(Duration duration) {
		return duration.toNanos() / 1_000_000.0;
	}

}
