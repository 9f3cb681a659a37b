package dev.agentmiddleware.approval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

class ApprovalRulesTests {

	// The specification, written out: which safety levels each policy gates when a tool
	// is neither exempt nor
	// sensitive.
	private static final Map<ApprovalRules.Mode, Set<SafetyLevel>> GATED = Map.of(ApprovalRules.Mode.NONE, Set.of(),
			ApprovalRules.Mode.DANGEROUS, Set.of(SafetyLevel.DANGEROUS), ApprovalRules.Mode.ALL,
			Set.of(SafetyLevel.SAFE, SafetyLevel.MODERATE, SafetyLevel.DANGEROUS), ApprovalRules.Mode.CONFIGURED,
			Set.of());

	static Stream<Arguments> policyTable() {
		List<Arguments> rows = new ArrayList<>();
		for (ApprovalRules.Mode policy : ApprovalRules.Mode.values()) {
			for (SafetyLevel safety : SafetyLevel.values()) {
				for (boolean exempt : new boolean[] { false, true }) {
					for (boolean sensitive : new boolean[] { false, true }) {
						boolean expected = !exempt && (sensitive || GATED.get(policy).contains(safety));
						rows.add(Arguments.of(policy, safety, exempt, sensitive, expected));
					}
				}
			}
		}
		return rows.stream();
	}

	@ParameterizedTest(name = "{0} x {1} x exempt={2} x sensitive={3} -> {4}")
	@MethodSource("policyTable")
	void policyTableDecidesWhetherAToolNeedsApproval(ApprovalRules.Mode policy, SafetyLevel safety, boolean exempt,
			boolean sensitive, boolean expected) {
		ToolDescriptor tool = ToolDescriptor.builder("tool_x").safety(safety).build();
		ApprovalRules rules = ApprovalRules.of(policy, exempt ? Set.of("tool_x") : Set.of(),
				sensitive ? Set.of("tool_x") : Set.of());
		assertThat(rules.requiresApproval(tool)).isEqualTo(expected);
		assertThat(rules.apply(tool)).as("the policy function").isEqualTo(expected ? ApprovalPolicy.REQUIRED : null);
	}

	@Test
	void policyTableCoversEveryCombination() {
		assertThat(policyTable()).hasSize(ApprovalRules.Mode.values().length * SafetyLevel.values().length * 4);
	}

	@Test
	void toolWithoutDeclaredSafetyCountsAsDangerous() {
		ToolDescriptor undeclared = ToolDescriptor.builder("mystery").build();
		assertThat(ApprovalRules.of(ApprovalRules.Mode.DANGEROUS, Set.of(), Set.of()).requiresApproval(undeclared))
			.isTrue();
	}

	@Test
	void exemptBeatsSensitiveAndAll() {
		ToolDescriptor tool = ToolDescriptor.builder("purge").safety(SafetyLevel.DANGEROUS).build();
		ApprovalRules rules = ApprovalRules.of(ApprovalRules.Mode.ALL, Set.of("purge"), Set.of("purge"));
		assertThat(rules.requiresApproval(tool)).isFalse();
	}

	@Test
	void nameFormMatchesNamesWrittenDifferently() {
		ToolDescriptor tool = ToolDescriptor.builder("write_file").safety(SafetyLevel.MODERATE).build();
		ApprovalRules rules = ApprovalRules.of(ApprovalRules.Mode.NONE, Set.of(), Set.of("WRITE-FILE"))
			.withNameForm((name) -> name.replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT));
		assertThat(rules.requiresApproval(tool)).isTrue();
	}

	@Test
	void aToolsOwnDecisionBeatsTheMode() {
		ToolDescriptor purge = ToolDescriptor.builder("purge").safety(SafetyLevel.DANGEROUS).build();
		ToolDescriptor read = ToolDescriptor.builder("read").safety(SafetyLevel.SAFE).build();
		ToolDescriptor other = ToolDescriptor.builder("other").safety(SafetyLevel.DANGEROUS).build();
		ApprovalRules rules = ApprovalRules.of(ApprovalRules.Mode.DANGEROUS, Map.of("purge", false, "read", true));
		assertThat(rules.requiresApproval(purge)).as("exempt by its own setting").isFalse();
		assertThat(rules.requiresApproval(read)).as("gated by its own setting").isTrue();
		assertThat(rules.requiresApproval(other)).as("decided by the mode").isTrue();
	}

	@Test
	void twoSpellingsOfOneToolAreExemptWhenEitherSaysSo() {
		ToolDescriptor tool = ToolDescriptor.builder("write_file").safety(SafetyLevel.MODERATE).build();
		ApprovalRules rules = ApprovalRules.of(ApprovalRules.Mode.ALL, Map.of("write_file", true, "WRITE-FILE", false))
			.withNameForm((name) -> name.replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT));
		assertThat(rules.requiresApproval(tool)).isFalse();
	}

}
