package dev.agentmiddleware.autoconfigure.internal;

import java.util.List;

import dev.agentmiddleware.autoconfigure.internal.ToolNames.NameSuggestions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class NameSuggestionsTests {

	private static final List<String> BUILT_INS = List.of("cache", "crash-recovery", "logging", "observation",
			"rate-limit", "retry", "timeout");

	@Test
	void suggestsTheClosestNameForATypo() {
		assertThat(NameSuggestions.closest("cahce", BUILT_INS)).isEqualTo("cache");
		assertThat(NameSuggestions.closest("ratelimit", BUILT_INS)).isEqualTo("rate-limit");
		assertThat(NameSuggestions.closest("timout", BUILT_INS)).isEqualTo("timeout");
	}

	@Test
	void comparesToolNamesInCanonicalForm() {
		assertThat(NameSuggestions.closest("lookup-ordr", List.of("lookup_order", "list_orders")))
			.isEqualTo("lookup_order");
	}

	@Test
	void suggestsALongerNameThatContainsTheWholeName() {
		assertThat(NameSuggestions.closest("recovery", BUILT_INS)).isEqualTo("crash-recovery");
	}

	@Test
	void suggestsNothingForANameFarFromEveryCandidate() {
		assertThat(NameSuggestions.closest("weather", BUILT_INS)).isNull();
		assertThat(NameSuggestions.didYouMean("weather", BUILT_INS)).isEmpty();
		assertThat(NameSuggestions.didYouMean("retyr", BUILT_INS)).isEqualTo("Did you mean 'retry'? ");
	}

}
