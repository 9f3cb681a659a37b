package dev.agentmiddleware.tool;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ToolDescriptorTests {

	@Test
	void invalidNameIsRejectedWithAMessageSayingWhatIsAllowed() {
		assertThatIllegalArgumentException().isThrownBy(() -> ToolDescriptor.builder("get weather").build())
			.withMessageContaining("'get weather'")
			.withMessageContaining("1 to 64 letters, digits, '_' or '-'");
	}

	@Test
	void nameMayHaveOneToSixtyFourCharacters() {
		assertThat(ToolDescriptor.builder("a").build().name()).isEqualTo("a");
		assertThat(ToolDescriptor.builder("x".repeat(64)).build().name()).hasSize(64);
		assertThatIllegalArgumentException().isThrownBy(() -> ToolDescriptor.builder("").build());
		assertThatIllegalArgumentException().isThrownBy(() -> ToolDescriptor.builder("x".repeat(65)).build());
	}

	@Test
	void nameMayUseLettersDigitsUnderscoreAndHyphen() {
		assertThat(ToolDescriptor.builder("Get_weather-2").build().name()).isEqualTo("Get_weather-2");
		assertThatIllegalArgumentException().isThrownBy(() -> ToolDescriptor.builder("get.weather").build());
	}

	@Test
	void toolThatDeclaresNoSafetyLevelCountsAsDangerous() {
		assertThat(ToolDescriptor.builder("delete_file").build().safety()).isEqualTo(SafetyLevel.DANGEROUS);
	}

	@Test
	void builderStartsWithFailSafeDefaults() {
		ToolDescriptor descriptor = ToolDescriptor.builder("echo").build();
		assertThat(descriptor.readOnly()).isFalse();
		assertThat(descriptor.idempotent()).isFalse();
		assertThat(descriptor.returnDirect()).isFalse();
		assertThat(descriptor.tags()).isEmpty();
		assertThat(descriptor.description()).isEmpty();
		assertThat(descriptor.inputSchema()).isEqualTo(ToolDescriptor.EMPTY_OBJECT_SCHEMA);
		assertThat(descriptor.resultType()).isEqualTo(Object.class);
	}

	@Test
	void tagsAreCopiedAndUnmodifiable() {
		Set<String> tags = new LinkedHashSet<>(List.of("browser"));
		ToolDescriptor descriptor = new ToolDescriptor("open_page", "", ToolDescriptor.EMPTY_OBJECT_SCHEMA,
				SafetyLevel.MODERATE, false, false, tags, false, Object.class);
		tags.add("shell");
		assertThat(descriptor.tags()).containsExactly("browser");
		assertThatThrownBy(() -> descriptor.tags().add("shell")).isInstanceOf(UnsupportedOperationException.class);
	}

	@Test
	void hasTagIgnoresCase() {
		ToolDescriptor descriptor = ToolDescriptor.builder("open_page").tags("Browser").build();
		assertThat(descriptor.hasTag("browser")).isTrue();
		assertThat(descriptor.hasTag("BROWSER")).isTrue();
		assertThat(descriptor.hasTag("shell")).isFalse();
	}

	@Test
	void primitiveResultTypeAcceptsItsBoxedTypeButNotNull() {
		ToolDescriptor descriptor = ToolDescriptor.builder("count").resultType(int.class).build();
		assertThat(descriptor.acceptsResult(42)).isTrue();
		assertThat(descriptor.acceptsResult(null)).isFalse();
		assertThat(descriptor.acceptsResult(42L)).isFalse();
		assertThat(descriptor.acceptsResult("42")).isFalse();
		assertThat(ToolDescriptor.builder("flag").resultType(boolean.class).build().acceptsResult(true)).isTrue();
		assertThat(ToolDescriptor.builder("letter").resultType(char.class).build().acceptsResult('c')).isTrue();
	}

	@Test
	void referenceResultTypeAcceptsInstancesSubtypesAndNull() {
		ToolDescriptor descriptor = ToolDescriptor.builder("count").resultType(Number.class).build();
		assertThat(descriptor.acceptsResult(42)).isTrue();
		assertThat(descriptor.acceptsResult(4.2)).isTrue();
		assertThat(descriptor.acceptsResult(null)).isTrue();
		assertThat(descriptor.acceptsResult("42")).isFalse();
	}

	@Test
	void voidAndObjectResultTypesAcceptAnything() {
		for (Class<?> type : List.of(void.class, Void.class, Object.class)) {
			ToolDescriptor descriptor = ToolDescriptor.builder("any").resultType(type).build();
			assertThat(descriptor.acceptsResult(null)).as(type.getName()).isTrue();
			assertThat(descriptor.acceptsResult("text")).as(type.getName()).isTrue();
		}
	}

}
