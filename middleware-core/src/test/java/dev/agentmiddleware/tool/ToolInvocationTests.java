package dev.agentmiddleware.tool;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.entry;

class ToolInvocationTests {

	private static final ToolDescriptor WEATHER = ToolDescriptor.builder("get_weather").build();

	private static final InvocationAttribute<String> TENANT = InvocationAttribute.of("tenant", String.class);

	@Test
	void builderDefaultsToJavaSourceWithoutSessionOrPrincipal() {
		ToolInvocation invocation = ToolInvocation.builder(WEATHER).build();
		assertThat(invocation.source()).isEqualTo(InvocationSource.JAVA);
		assertThat(invocation.sessionId()).isNull();
		assertThat(invocation.principal()).isNull();
		assertThat(invocation.arguments()).isEmpty();
		assertThat(invocation.toolName()).isEqualTo("get_weather");
	}

	@Test
	void withArgumentReturnsAChangedCopyAndLeavesTheOriginalUnchanged() {
		ToolInvocation original = ToolInvocation.builder(WEATHER).argument("city", "Porto").sessionId("s1").build();
		ToolInvocation changed = original.withArgument("city", "Lisbon");
		assertThat(changed).isNotSameAs(original);
		assertThat(changed.argument("city")).isEqualTo("Lisbon");
		assertThat(original.argument("city")).isEqualTo("Porto");
		assertThat(changed.callId()).isEqualTo(original.callId());
		assertThat(changed.sessionId()).isEqualTo("s1");
	}

	@Test
	void argumentsMapIsUnmodifiable() {
		ToolInvocation invocation = ToolInvocation.builder(WEATHER).argument("city", "Porto").build();
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> invocation.arguments().put("city", "Lisbon"));
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> invocation.withArgument("days", 3).arguments().remove("city"));
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> invocation.withArguments(Map.of("city", "Faro")).arguments().clear());
	}

	@Test
	void argumentsAreCopiedFromTheMapsGiven() {
		Map<String, Object> arguments = new HashMap<>(Map.of("city", "Porto"));
		ToolInvocation built = ToolInvocation.builder(WEATHER).arguments(arguments).build();
		ToolInvocation replaced = built.withArguments(arguments);
		arguments.put("city", "Lisbon");
		assertThat(built.argument("city")).isEqualTo("Porto");
		assertThat(replaced.argument("city")).isEqualTo("Porto");
	}

	@Test
	void argumentsKeepTheirOrder() {
		Map<String, Object> arguments = new LinkedHashMap<>();
		arguments.put("zeta", 1);
		arguments.put("alpha", 2);
		ToolInvocation invocation = ToolInvocation.builder(WEATHER).arguments(arguments).argument("mid", 3).build();
		assertThat(invocation.arguments().keySet()).containsExactly("zeta", "alpha", "mid");
		assertThat(invocation.withArgument("alpha", 9).arguments().keySet()).containsExactly("zeta", "alpha", "mid");
	}

	@Test
	void nullArgumentValuesAreAllowed() {
		ToolInvocation invocation = ToolInvocation.builder(WEATHER).argument("units", null).build();
		assertThat(invocation.arguments()).containsExactly(entry("units", null));
		Map<String, Object> withNull = new HashMap<>();
		withNull.put("days", null);
		assertThat(invocation.withArgument("city", null).arguments()).containsKeys("units", "city");
		assertThat(invocation.withArguments(withNull).arguments()).containsExactly(entry("days", null));
	}

	@Test
	void attributesAreTypedAndKeyedByIdentityNotName() {
		InvocationAttribute<String> otherTenant = InvocationAttribute.of("tenant", String.class);
		ToolInvocation invocation = ToolInvocation.builder(WEATHER).attribute(TENANT, "acme").build();
		assertThat(invocation.attribute(TENANT)).isEqualTo("acme");
		assertThat(invocation.attribute(otherTenant)).isNull();
	}

	@Test
	void withAttributeReturnsAChangedCopyAndLeavesTheOriginalUnchanged() {
		ToolInvocation original = ToolInvocation.builder(WEATHER).build();
		ToolInvocation tagged = original.withAttribute(TENANT, "acme");
		assertThat(tagged.attribute(TENANT)).isEqualTo("acme");
		assertThat(original.attribute(TENANT)).isNull();
	}

	@Test
	@SuppressWarnings({ "rawtypes", "unchecked" })
	void attributeOfTheWrongTypeIsRejected() {
		InvocationAttribute raw = TENANT;
		ToolInvocation invocation = ToolInvocation.builder(WEATHER).build();
		assertThatExceptionOfType(ClassCastException.class).isThrownBy(() -> invocation.withAttribute(raw, 42));
		assertThatExceptionOfType(ClassCastException.class)
			.isThrownBy(() -> ToolInvocation.builder(WEATHER).attribute(raw, 42));
	}

	@Test
	void callIdsAreUniqueUnlessGiven() {
		Set<String> ids = new HashSet<>();
		for (int i = 0; i < 1000; i++) {
			ids.add(ToolInvocation.builder(WEATHER).build().callId());
		}
		assertThat(ids).hasSize(1000);
		assertThat(ToolInvocation.builder(WEATHER).callId("call-7").build().callId()).isEqualTo("call-7");
	}

	@Test
	void toStringNamesArgumentsButNotTheirValues() {
		ToolInvocation invocation = ToolInvocation.builder(WEATHER).argument("password", "hunter2").build();
		assertThat(invocation.toString()).contains("get_weather", "password").doesNotContain("hunter2");
	}

}
