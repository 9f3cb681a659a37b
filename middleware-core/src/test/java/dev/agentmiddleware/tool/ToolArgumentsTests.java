package dev.agentmiddleware.tool;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ToolArgumentsTests {

	private final ToolArguments.Names names = ToolArguments.names("city", "days");

	@Test
	void keepsDeclarationOrderAndAllowsNullValues() {
		Map<String, Object> arguments = this.names.with(new Object[] { "Lisbon", null });
		assertThat(arguments.keySet()).containsExactly("city", "days");
		assertThat(arguments.get("city")).isEqualTo("Lisbon");
		assertThat(arguments.get("days")).isNull();
		assertThat(arguments.containsKey("days")).isTrue();
		assertThat(arguments.containsKey("units")).isFalse();
	}

	@Test
	void equalsAndHashCodeFollowTheMapContractWhateverTheOrder() {
		Map<String, Object> arguments = this.names.with(new Object[] { "Lisbon", 3 });
		Map<String, Object> reversed = new LinkedHashMap<>();
		reversed.put("days", 3);
		reversed.put("city", "Lisbon");
		assertThat(arguments).isEqualTo(reversed);
		assertThat(reversed).isEqualTo(arguments);
		assertThat(arguments).hasSameHashCodeAs(reversed);
		assertThat(arguments).isEqualTo(this.names.with(new Object[] { "Lisbon", 3 }))
			.isNotEqualTo(this.names.with(new Object[] { "Porto", 3 }));
	}

	@Test
	void isImmutable() {
		Map<String, Object> arguments = this.names.with(new Object[] { "Lisbon", 3 });
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> arguments.put("city", "x"));
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> arguments.remove("city"));
	}

	@Test
	void anInvocationAdoptsThemWithoutCopying() {
		ToolArguments arguments = this.names.with(new Object[] { "Lisbon", 3 });
		ToolInvocation invocation = ToolInvocation.builder(ToolDescriptor.builder("get_weather").build())
			.arguments(arguments)
			.build();
		assertThat(invocation.arguments()).isSameAs(arguments);
		assertThat(invocation.withArgument("days", 4).arguments()).containsEntry("days", 4)
			.containsEntry("city", "Lisbon");
		assertThat(invocation.arguments()).containsEntry("days", 3);
	}

	@Test
	void refusesMismatchedValuesAndDuplicateNames() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.names.with(new Object[] { "Lisbon" }))
			.withMessageContaining("Expected 2 values");
		assertThatIllegalArgumentException().isThrownBy(() -> ToolArguments.names("a", "a"))
			.withMessageContaining("Duplicate parameter name 'a'");
	}

	@Test
	void aCallIdIsFormattedOnceAndSharedByCopies() {
		ToolInvocation invocation = ToolInvocation.builder(ToolDescriptor.builder("get_weather").build()).build();
		ToolInvocation copy = invocation.withSessionId("s1");
		assertThat(copy.callId()).isEqualTo(invocation.callId()).matches("[0-9a-f]+-[0-9a-f]+");
	}

}
