package dev.agentmiddleware.authorization;

import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentmiddleware.authorization.AuthorizationMiddleware.ToolForbiddenException;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolDeniedException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.ToolPrincipal;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class AuthorizationMiddlewareTests {

	private static final ToolDescriptor DELETE_FILE = ToolDescriptor.builder("delete_file")
		.authorities("SCOPE_files.write")
		.build();

	private static final ToolDescriptor READ_FILE = ToolDescriptor.builder("read_file").readOnly(true).build();

	private final AtomicInteger executions = new AtomicInteger();

	private final ToolHandler tool = (invocation) -> "ran " + this.executions.incrementAndGet();

	private final AuthorizationMiddleware authorization = AuthorizationMiddleware.builder().build();

	@Test
	void aToolThatRequiresNothingGetsTheSameHandlerBack() {
		assertThat(this.authorization.wrap(READ_FILE, this.tool)).isSameAs(this.tool);
		assertThat(this.authorization.policies()).isEmpty();
	}

	@Test
	void aCallerHoldingEveryRequiredAuthorityRunsTheTool() throws Exception {
		ToolHandler handler = this.authorization.wrap(DELETE_FILE, this.tool);
		Object result = handler
			.handle(call(DELETE_FILE, ToolPrincipal.of("alice", Set.of("SCOPE_files.write", "SCOPE_files.read"))));
		assertThat(result).isEqualTo("ran 1");
		assertThat(this.authorization.policies()).containsOnlyKeys("delete_file");
	}

	@Test
	void aCallerMissingAnAuthorityIsForbiddenAndTheToolDoesNotRun() {
		ToolHandler handler = this.authorization.wrap(DELETE_FILE, this.tool);
		assertThatExceptionOfType(ToolForbiddenException.class)
			.isThrownBy(() -> handler.handle(call(DELETE_FILE, ToolPrincipal.of("bob", Set.of("SCOPE_files.read")))))
			.satisfies((ex) -> {
				assertThat(ex).hasMessage("Tool 'delete_file' requires authority SCOPE_files.write, which the caller "
						+ "does not have.");
				assertThat(ex.outcome()).isEqualTo(CallOutcome.FORBIDDEN);
				assertThat(ex.decidedBy()).isEqualTo("authorization");
				assertThat(ex.missingAuthorities()).containsExactly("SCOPE_files.write");
				assertThat(ex.authenticated()).isTrue();
				assertThat(ex).isInstanceOf(ToolDeniedException.class);
				assertThat(ex.getStackTrace()).isEmpty();
				assertThat(ex.getMessage()).doesNotContain("bob");
			});
		assertThat(this.executions).hasValue(0);
	}

	@Test
	void everyRequiredAuthorityIsNeededAndOnlyTheMissingOnesAreNamed() {
		ToolDescriptor purge = ToolDescriptor.builder("purge").authorities("ROLE_ADMIN", "SCOPE_files.write").build();
		ToolHandler handler = this.authorization.wrap(purge, this.tool);
		assertThatExceptionOfType(ToolForbiddenException.class)
			.isThrownBy(() -> handler.handle(call(purge, ToolPrincipal.of("carol", Set.of("SCOPE_files.write")))))
			.withMessage("Tool 'purge' requires authority ROLE_ADMIN, which the caller does not have.");
		assertThatExceptionOfType(ToolForbiddenException.class)
			.isThrownBy(() -> handler.handle(call(purge, ToolPrincipal.of("dave"))))
			.withMessage("Tool 'purge' requires authorities ROLE_ADMIN, SCOPE_files.write, which the caller does not "
					+ "have.");
		assertThat(this.executions).hasValue(0);
	}

	@Test
	void anUnauthenticatedCallerIsForbiddenAToolThatRequiresAuthorities() {
		ToolHandler handler = this.authorization.wrap(DELETE_FILE, this.tool);
		assertThatExceptionOfType(ToolForbiddenException.class)
			.isThrownBy(() -> handler.handle(call(DELETE_FILE, null)))
			.satisfies((ex) -> {
				assertThat(ex).hasMessage("Tool 'delete_file' requires authority SCOPE_files.write, and the caller "
						+ "is not authenticated.");
				assertThat(ex.authenticated()).isFalse();
			});
		assertThat(this.executions).hasValue(0);
	}

	@Test
	void thePolicyFunctionDecidesInsteadOfTheDescriptor() throws Exception {
		AuthorizationMiddleware configured = AuthorizationMiddleware.builder()
			.policies((tool) -> tool.name().equals("read_file") ? AuthorizationPolicy.of("SCOPE_files.read") : null)
			.build();
		assertThat(configured.wrap(DELETE_FILE, this.tool)).isSameAs(this.tool);
		ToolHandler reading = configured.wrap(READ_FILE, this.tool);
		assertThatExceptionOfType(ToolForbiddenException.class).isThrownBy(() -> reading.handle(call(READ_FILE, null)));
		assertThat(reading.handle(call(READ_FILE, ToolPrincipal.of("alice", Set.of("SCOPE_files.read")))))
			.isEqualTo("ran 1");
	}

	@Test
	void permitsAnswersWhatACallerMayCallWithTheSamePolicy() {
		ToolPrincipal writer = ToolPrincipal.of("alice", Set.of("SCOPE_files.write"));
		ToolPrincipal reader = ToolPrincipal.of("bob", Set.of("SCOPE_files.read"));
		assertThat(this.authorization.permits(DELETE_FILE, writer)).isTrue();
		assertThat(this.authorization.permits(DELETE_FILE, reader)).isFalse();
		assertThat(this.authorization.permits(DELETE_FILE, null)).isFalse();
		assertThat(this.authorization.permits(READ_FILE, null)).isTrue();
	}

	@Test
	void runsBeforeArgumentBindingAndApproval() {
		assertThat(this.authorization.order()).isEqualTo(BuiltInOrder.AUTHORIZATION)
			.isGreaterThan(BuiltInOrder.LOGGING)
			.isLessThan(BuiltInOrder.ARGUMENT_BINDING)
			.isLessThan(BuiltInOrder.APPROVAL);
	}

	@Test
	void aPolicyNeedsAtLeastOneAuthorityAndNoBlankOne() {
		assertThatIllegalArgumentException().isThrownBy(AuthorizationPolicy::of)
			.withMessageContaining("at least one authority");
		assertThatIllegalArgumentException().isThrownBy(() -> AuthorizationPolicy.of("SCOPE_a", " "))
			.withMessageContaining("blank");
		assertThat(AuthorizationPolicy.ofAll(Set.of(), Set.of())).isNull();
		assertThat(AuthorizationPolicy.ofAll(Set.of("ROLE_ADMIN"), List.of("SCOPE_files.write")))
			.isEqualTo(AuthorizationPolicy.of("SCOPE_files.write", "ROLE_ADMIN"));
	}

	private static ToolInvocation call(ToolDescriptor tool, @Nullable ToolPrincipal principal) {
		return ToolInvocation.builder(tool).principal(principal).build();
	}

}
