package dev.agentmiddleware.autoconfigure.approval.web;

import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import dev.agentmiddleware.approval.ApprovalAuditListener.ApprovalAuditRecord;
import dev.agentmiddleware.approval.ApprovalDecision;
import dev.agentmiddleware.approval.ApprovalRequest;
import dev.agentmiddleware.approval.ApprovalStore;
import dev.agentmiddleware.approval.ArgumentsBinder;
import dev.agentmiddleware.approval.SessionGrant.GrantScope;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.SessionFingerprint;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolMiddlewareException;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.io.ClassPathResource;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.StreamUtils;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * The approval queue's REST API and console, under
 * {@code agent.middleware.approval.web.path} (default {@code /agent/approvals}):
 * <ul>
 * <li>{@code GET {path}}: the pending requests (id, tool, safety, summary, redacted
 * arguments, session fingerprint, principal, createdAt, expiresAt);</li>
 * <li>{@code GET {path}/audit?limit=50}: the latest decisions, newest first;</li>
 * <li>{@code POST {path}/{id}/approve}, {@code POST {path}/{id}/approve-for-session}
 * (optional body {@code {"scope": "arguments"|"tool"}}), {@code POST {path}/{id}/deny}
 * ({@code {"reason": "…"}}), {@code POST {path}/{id}/approve-with-arguments}
 * ({@code {"arguments": {…}}}, bound and validated like a new call of the same tool: 400
 * when invalid);</li>
 * <li>{@code GET {path}/console}: the web console; {@code GET
 * {path}/console/requests/{id}}: its page of one request, where the approval link points.
 * With the audit trail's REST API served, the console has an audit tab for users with the
 * auditor role, who may open the console without being approvers.</li>
 * </ul>
 * Decisions answer 404 for an unknown id and 409 for a request already decided or
 * expired. Nobody approves their own call: an approval by the principal that made the
 * call answers 403 naming the rule ({@value #NO_SELF_APPROVAL}) unless
 * {@code agent.middleware.approval.allow-self-approval} is true; the caller may still
 * deny (cancel) its own request. POST requests must be {@code application/json}, which
 * browsers cannot send across origins without a CORS preflight: together with Spring
 * Security's role check this keeps other sites from deciding through a logged-in browser.
 */
@RestController
public class ApprovalController {

	/** The rule a 403 names when the caller of a request tries to decide it. */
	public static final String NO_SELF_APPROVAL = "no-self-approval";

	private static final int MAX_ECHOED_ID_LENGTH = 64;

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final int MAX_REASON_LENGTH = 1000;

	private final ApprovalStore store;

	private final ArgumentsBinder binder;

	private final java.util.function.Function<String, Optional<ToolDescriptor>> tools;

	private final Clock clock;

	private final String path;

	private final Duration refreshInterval;

	private final boolean allowSelfApproval;

	private final @Nullable AuditTab auditTab;

	/**
	 * Creates the controller, which refuses a decision by the principal that made the
	 * call.
	 * @param store the approval store
	 * @param binder binds changed arguments like a new call
	 * @param tools the descriptor of a tool by name
	 * @param clock the clock decisions are timed with
	 * @param path the base path, for the console
	 * @param refreshInterval how often the console polls
	 */
	public ApprovalController(ApprovalStore store, ArgumentsBinder binder,
			java.util.function.Function<String, Optional<ToolDescriptor>> tools, Clock clock, String path,
			Duration refreshInterval) {
		this(store, binder, tools, clock, path, refreshInterval, false);
	}

	/**
	 * Creates the controller.
	 * @param store the approval store
	 * @param binder binds changed arguments like a new call
	 * @param tools the descriptor of a tool by name
	 * @param clock the clock decisions are timed with
	 * @param path the base path, for the console
	 * @param refreshInterval how often the console polls
	 * @param allowSelfApproval whether the principal that made a call may decide it
	 */
	public ApprovalController(ApprovalStore store, ArgumentsBinder binder,
			java.util.function.Function<String, Optional<ToolDescriptor>> tools, Clock clock, String path,
			Duration refreshInterval, boolean allowSelfApproval) {
		this(store, binder, tools, clock, path, refreshInterval, allowSelfApproval, null);
	}

	/**
	 * Creates the controller, whose console has an audit tab when {@code auditTab} is
	 * given.
	 */
	ApprovalController(ApprovalStore store, ArgumentsBinder binder,
			java.util.function.Function<String, Optional<ToolDescriptor>> tools, Clock clock, String path,
			Duration refreshInterval, boolean allowSelfApproval, @Nullable AuditTab auditTab) {
		this.allowSelfApproval = allowSelfApproval;
		this.auditTab = auditTab;
		this.store = Objects.requireNonNull(store, "store");
		this.binder = Objects.requireNonNull(binder, "binder");
		this.tools = Objects.requireNonNull(tools, "tools");
		this.clock = Objects.requireNonNull(clock, "clock");
		this.path = Objects.requireNonNull(path, "path");
		this.refreshInterval = Objects.requireNonNull(refreshInterval, "refreshInterval");
	}

	@GetMapping(path = "${agent.middleware.approval.web.path:/agent/approvals}",
			produces = MediaType.APPLICATION_JSON_VALUE)
	public List<PendingApproval> pending() {
		Instant now = this.clock.instant();
		return this.store.pending(now).stream().map((request) -> PendingApproval.of(request, now)).toList();
	}

	@GetMapping(path = "${agent.middleware.approval.web.path:/agent/approvals}/audit",
			produces = MediaType.APPLICATION_JSON_VALUE)
	public List<AuditEntry> audit(@RequestParam(defaultValue = "50") int limit) {
		return this.store.auditTrail(Math.max(1, Math.min(limit, 1000))).stream().map(AuditEntry::of).toList();
	}

	@PostMapping(path = "${agent.middleware.approval.web.path:/agent/approvals}/{id}/approve",
			consumes = MediaType.APPLICATION_JSON_VALUE)
	public ResponseEntity<Map<String, Object>> approve(@PathVariable String id, @Nullable Principal principal) {
		return decide(id, ApprovalDecision.approve(approver(principal)), principal);
	}

	@PostMapping(path = "${agent.middleware.approval.web.path:/agent/approvals}/{id}/approve-for-session",
			consumes = MediaType.APPLICATION_JSON_VALUE)
	public ResponseEntity<Map<String, Object>> approveForSession(@PathVariable String id,
			@RequestBody(required = false) @Nullable Map<String, Object> body, @Nullable Principal principal) {
		Object scope = (body != null) ? body.get("scope") : null;
		GrantScope grantScope;
		if (scope == null || "arguments".equals(scope)) {
			grantScope = GrantScope.ARGUMENTS;
		}
		else if ("tool".equals(scope)) {
			grantScope = GrantScope.TOOL;
		}
		else {
			return error(HttpStatus.BAD_REQUEST, "Field 'scope' must be \"arguments\" or \"tool\"");
		}
		return decide(id, ApprovalDecision.approveForSession(approver(principal), grantScope), principal);
	}

	@PostMapping(path = "${agent.middleware.approval.web.path:/agent/approvals}/{id}/deny",
			consumes = MediaType.APPLICATION_JSON_VALUE)
	public ResponseEntity<Map<String, Object>> deny(@PathVariable String id,
			@RequestBody(required = false) @Nullable Map<String, Object> body, @Nullable Principal principal) {
		Object reason = (body != null) ? body.get("reason") : null;
		String text = (reason != null) ? reason.toString().strip() : null;
		if (text != null && text.length() > MAX_REASON_LENGTH) {
			return error(HttpStatus.BAD_REQUEST, "Field 'reason' is longer than " + MAX_REASON_LENGTH + " characters");
		}
		// The caller may deny (cancel) its own request: a denial never lets a call run.
		return decide(id, ApprovalDecision.deny(approver(principal), (text == null || text.isEmpty()) ? null : text),
				null);
	}

	@PostMapping(path = "${agent.middleware.approval.web.path:/agent/approvals}/{id}/approve-with-arguments",
			consumes = MediaType.APPLICATION_JSON_VALUE)
	public ResponseEntity<Map<String, Object>> approveWithArguments(@PathVariable String id,
			@RequestBody Map<String, Object> body, @Nullable Principal principal) {
		Optional<ApprovalRequest> request = this.store.find(id);
		if (request.isEmpty()) {
			return notFound(id);
		}
		if (!(body.get("arguments") instanceof Map<?, ?> arguments)) {
			return error(HttpStatus.BAD_REQUEST,
					"Body must be {\"arguments\": {...}} with the complete new arguments of tool '"
							+ request.get().toolName() + "'");
		}
		String json = JSON.writeValueAsString(arguments);
		Optional<ToolDescriptor> tool = this.tools.apply(request.get().toolName());
		if (tool.isEmpty()) {
			return error(HttpStatus.BAD_REQUEST, "Tool '" + request.get().toolName() + "' is not registered");
		}
		try {
			this.binder.bind(tool.get(), json);
		}
		catch (ToolMiddlewareException | IllegalStateException | IllegalArgumentException ex) {
			return error(HttpStatus.BAD_REQUEST, String.valueOf(ex.getMessage()));
		}
		return decide(id, ApprovalDecision.approveWithArguments(approver(principal), json), principal);
	}

	@GetMapping(path = "${agent.middleware.approval.web.path:/agent/approvals}/console",
			produces = MediaType.TEXT_HTML_VALUE)
	public String console() throws java.io.IOException {
		return page(null);
	}

	/**
	 * The console page of one request, as the approval link sends it: that request
	 * (pending, or its decision), with a link to the whole console. An id that cannot be
	 * one of ours gets 404.
	 * @param id the request id
	 * @return the page
	 * @throws java.io.IOException if the page cannot be read
	 */
	@GetMapping(path = "${agent.middleware.approval.web.path:/agent/approvals}/console/requests/{id}",
			produces = MediaType.TEXT_HTML_VALUE)
	public ResponseEntity<String> consoleOfRequest(@PathVariable String id) throws java.io.IOException {
		if (!plainId(id)) {
			return ResponseEntity.status(HttpStatus.NOT_FOUND)
				.contentType(MediaType.TEXT_HTML)
				.body("<!DOCTYPE html><title>Not found</title><p>No approval request with this id.</p>");
		}
		return ResponseEntity.ok().contentType(MediaType.TEXT_HTML).body(page(id));
	}

	// The console; with a request id (plain characters only, so it is safe in the script
	// as it is), only that one. The audit tab only for an auditor (the audit API is
	// authorized on its own: the tab just spares others a page they may not read).
	private String page(@Nullable String requestId) throws java.io.IOException {
		String page = StreamUtils.copyToString(
				new ClassPathResource("console.html", ApprovalController.class).getInputStream(),
				StandardCharsets.UTF_8);
		AuditTab tab = this.auditTab;
		return page.replace("{{path}}", this.path)
			.replace("{{refreshMillis}}", Long.toString(this.refreshInterval.toMillis()))
			.replace("{{requestId}}", (requestId != null) ? "\"" + requestId + "\"" : "null")
			.replace("{{auditPath}}",
					(tab != null && requestId == null && currentUserIs(tab.authority()))
							? JSON.writeValueAsString(tab.path()) : "null")
			.replace("{{auditOutcomes}}",
					JSON.writeValueAsString(Arrays.stream(CallOutcome.values()).map(CallOutcome::tagValue).toList()));
	}

	private static boolean currentUserIs(String authority) {
		return RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes
				&& attributes.getRequest().isUserInRole(authority);
	}

	/**
	 * Records a decision; {@code approver} is the principal of a decision that lets the
	 * call run, checked against the request's caller, or {@code null} for a denial.
	 */
	private ResponseEntity<Map<String, Object>> decide(String id, ApprovalDecision decision,
			@Nullable Principal approver) {
		ResponseEntity<Map<String, Object>> selfApproval = selfApproval(id, approver);
		if (selfApproval != null) {
			return selfApproval;
		}
		ApprovalStore.DecideResult result = this.store.decide(id, decision, this.clock.instant());
		return switch (result) {
			case DECIDED -> {
				Map<String, Object> body = new LinkedHashMap<>();
				body.put("id", id);
				body.put("outcome", decision.outcome().tagValue());
				body.put("decidedBy", decision.decidedBy());
				yield ResponseEntity.ok(body);
			}
			case UNKNOWN -> notFound(id);
			case ALREADY_DECIDED -> error(HttpStatus.CONFLICT,
					"Approval request '" + id + "' was already decided; a decision applies to one call only");
			case EXPIRED -> error(HttpStatus.CONFLICT,
					"Approval request '" + id + "' expired; its call was denied and the decision applies to nothing");
		};
	}

	// With both identities known, the approver of a request must not be its caller.
	private @Nullable ResponseEntity<Map<String, Object>> selfApproval(String id, @Nullable Principal approver) {
		if (this.allowSelfApproval || approver == null || approver.getName() == null) {
			return null;
		}
		Optional<ApprovalRequest> request = this.store.find(id);
		if (request.isEmpty() || !approver.getName().equals(request.get().principal())) {
			return null;
		}
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("error", "Approval request " + echoed(id) + " was made by you: nobody approves their own call "
				+ "(rule " + NO_SELF_APPROVAL + "); another approver must approve it, or deny it yourself");
		body.put("rule", NO_SELF_APPROVAL);
		return ResponseEntity.status(HttpStatus.FORBIDDEN).body(body);
	}

	private static ResponseEntity<Map<String, Object>> notFound(String id) {
		return error(HttpStatus.NOT_FOUND, "No approval request " + echoed(id));
	}

	// An unknown id comes from the client: it is named back only when it looks like one
	// of ours (short, plain), so an
	// error body never echoes unbounded or markup-laden input.
	private static String echoed(String id) {
		return plainId(id) ? "'" + id + "'" : "with this id";
	}

	private static boolean plainId(String id) {
		return !id.isEmpty() && id.length() <= MAX_ECHOED_ID_LENGTH
				&& id.chars()
					.allMatch((c) -> (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
							|| c == '-' || c == '_');
	}

	private static ResponseEntity<Map<String, Object>> error(HttpStatus status, String message) {
		return ResponseEntity.status(status).body(Map.of("error", message));
	}

	private static String approver(@Nullable Principal principal) {
		return (principal != null && principal.getName() != null) ? principal.getName() : "anonymous";
	}

	/**
	 * A pending request as the API shows it.
	 *
	 * @param id the request id
	 * @param tool the tool
	 * @param safety the tool's safety level
	 * @param summary the one-line summary
	 * @param arguments the redacted arguments
	 * @param session the fingerprint of the caller's session (never its id, which works
	 * like a bearer secret)
	 * @param principal the caller's principal
	 * @param createdAt when the call asked
	 * @param expiresAt when it is denied unless decided
	 * @param ageSeconds how long it has been waiting
	 */
	public record PendingApproval(String id, String tool, String safety, String summary, JsonNode arguments,
			@Nullable String session, @Nullable String principal, Instant createdAt, Instant expiresAt,
			long ageSeconds) {

		static PendingApproval of(ApprovalRequest request, Instant now) {
			JsonNode arguments;
			try {
				arguments = JSON.readTree(request.arguments());
			}
			catch (JacksonException ex) {
				arguments = JSON.getNodeFactory().stringNode(request.arguments());
			}
			return new PendingApproval(request.id(), request.toolName(), request.safety().name(), request.summary(),
					arguments, SessionFingerprint.ofNullable(request.sessionId()), request.principal(),
					request.createdAt(), request.expiresAt(),
					Math.max(0, Duration.between(request.createdAt(), now).toSeconds()));
		}

	}

	/**
	 * An audit record as the API shows it.
	 *
	 * @param requestId the request (or call) id
	 * @param tool the tool
	 * @param argumentsHash the hash of the call's arguments
	 * @param session the fingerprint of the caller's session (never its id)
	 * @param principal the caller's principal
	 * @param decidedBy who decided
	 * @param outcome the outcome, such as {@code approved-for-session}
	 * @param reason the reason given
	 * @param requestedAt when the call asked
	 * @param decidedAt when it was decided
	 */
	public record AuditEntry(String requestId, String tool, String argumentsHash, @Nullable String session,
			@Nullable String principal, String decidedBy, String outcome, @Nullable String reason, Instant requestedAt,
			Instant decidedAt) {

		static AuditEntry of(ApprovalAuditRecord record) {
			return new AuditEntry(record.requestId(), record.toolName(), record.argumentsHash(),
					SessionFingerprint.ofNullable(record.sessionId()), record.principal(), record.decidedBy(),
					record.outcome().tagValue(), record.reason(), record.requestedAt(), record.decidedAt());
		}

	}

}
