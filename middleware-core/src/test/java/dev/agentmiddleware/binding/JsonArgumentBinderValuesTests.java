package dev.agentmiddleware.binding;

import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Binding the arguments map of an MCP request accepts and refuses exactly what binding
 * the same JSON text does, with the same messages, so the MCP and {@code ChatClient}
 * paths treat a model alike.
 */
class JsonArgumentBinderValuesTests {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private final JsonArgumentBinder binder = new JsonArgumentBinder("book_trip",
			List.of(new ToolParameter("city", String.class, "", true), new ToolParameter("days", int.class, "", true),
					new ToolParameter("budget", double.class, "", false),
					new ToolParameter("stops", listOf(Stop.class), "", false),
					new ToolParameter("unit", Unit.class, "", false),
					new ToolParameter("count", Long.class, "", false)),
			MAPPER, ArgumentLimits.DEFAULTS);

	@ParameterizedTest
	@ValueSource(strings = { "{\"city\":\"Lisbon\",\"days\":3}", "{\"city\":\"Lisbon\",\"days\":3,\"budget\":\"3.5\"}",
			"{\"city\":\"Lisbon\",\"days\":\"3\",\"budget\":12}",
			"{\"city\":\"Lisbon\",\"days\":3,\"stops\":[{\"name\":\"Obidos\",\"nights\":1}],\"unit\":\"KM\"}",
			"{\"city\":\"Lisbon\",\"days\":3,\"count\":12345678901}", "{\"city\":\"Lisbon\",\"days\":3,\"unit\":null}",
			"{\"city\":\"Lisbon\",\"days\":\"three\"}", "{\"city\":\"Lisbon\",\"days\":2.5}",
			"{\"city\":\"Lisbon\",\"days\":null}", "{\"city\":\"Lisbon\"}",
			"{\"city\":\"Lisbon\",\"days\":3,\"rate\":2}", "{\"city\":\"Lisbon\",\"days\":3,\"unit\":1}",
			"{\"city\":\"Lisbon\",\"days\":3,\"stops\":[{\"name\":\"Obidos\",\"beds\":2}]}",
			"{\"city\":\"Lisbon\",\"days\":3,\"stops\":{\"name\":\"Obidos\"}}",
			"{\"city\":\"Lisbon\",\"days\":3,\"budget\":true}" })
	void mapAndJsonAreBoundAlike(String json) {
		@SuppressWarnings("unchecked")
		Map<String, Object> values = MAPPER.readValue(json, Map.class);
		InvalidToolArgumentsException fromJson = catchThrowableOfType(InvalidToolArgumentsException.class,
				() -> this.binder.bind(json));
		InvalidToolArgumentsException fromMap = catchThrowableOfType(InvalidToolArgumentsException.class,
				() -> this.binder.bindValues(values));
		if (fromJson == null) {
			assertThat(fromMap).as("map refused what JSON accepted").isNull();
			assertThat(this.binder.bindValues(values)).isEqualTo(this.binder.bind(json));
		}
		else {
			assertThat(fromMap).as("map accepted what JSON refused: %s", fromJson.getMessage()).isNotNull();
			assertThat(fromMap.getMessage()).isEqualTo(fromJson.getMessage());
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"city\":\"Lisbon\",\"days\":3,\"budget\":\"3.5\"}" })
	void numberSentAsTextIsAccepted(String json) {
		@SuppressWarnings("unchecked")
		Map<String, Object> values = MAPPER.readValue(json, Map.class);
		assertThat(this.binder.bindValues(values)).containsEntry("budget", 3.5);
	}

	@SuppressWarnings("unchecked")
	@ParameterizedTest
	@ValueSource(strings = { "{\"city\":\"Lisbon\",\"days\":12345678901}" })
	void integerOverflowIsRefusedOnBothPathsWithTheSameMessage(String json) {
		InvalidToolArgumentsException fromJson = catchThrowableOfType(InvalidToolArgumentsException.class,
				() -> this.binder.bind(json));
		InvalidToolArgumentsException fromMap = catchThrowableOfType(InvalidToolArgumentsException.class,
				() -> this.binder.bindValues(MAPPER.readValue(json, Map.class)));
		assertThat(fromJson).hasMessageContaining("'days'").hasMessageContaining("is out of range");
		assertThat(fromMap).hasMessage(fromJson.getMessage());
	}

	@Test
	void payloadOverTheLimitIsRefusedAsAMapToo() {
		String json = "{\"city\":\"" + "x".repeat(69_989) + "\",\"days\":1}";
		InvalidToolArgumentsException refused = catchThrowableOfType(InvalidToolArgumentsException.class,
				() -> this.binder.bindValues(MAPPER.readValue(json, Map.class)));
		assertThat(refused)
			.hasMessage("Invalid arguments for tool 'book_trip': payload exceeds the limit of 65536 characters");
		assertThat(catchThrowableOfType(InvalidToolArgumentsException.class, () -> this.binder.bind(json)))
			.hasMessageContaining("exceeds the limit of 65536");
	}

	@Test
	void payloadJustUnderTheLimitIsBoundAsAMapAndAsJson() {
		String json = "{\"city\":\"" + "\\\"".repeat(1000) + "x".repeat(65_536 - 2_031) + "\",\"days\":1,\"budget\":1}";
		assertThat(json).hasSize(65_536);
		@SuppressWarnings("unchecked")
		Map<String, Object> values = MAPPER.readValue(json, Map.class);
		assertThat(this.binder.bindValues(values)).isEqualTo(this.binder.bind(json));
		String over = json.replace("\"days\":1", "\"days\":10");
		assertThat(catchThrowableOfType(InvalidToolArgumentsException.class,
				() -> this.binder.bindValues(MAPPER.readValue(over, Map.class))))
			.isNotNull();
	}

	@Test
	void nestingDeeperThanTheLimitIsRefusedAsAMapWithTheParameterNamed() {
		JsonArgumentBinder deep = new JsonArgumentBinder("deep",
				List.of(new ToolParameter("data", Object.class, "", true)), MAPPER, ArgumentLimits.DEFAULTS);
		Map<String, Object> ok = Map.of("data", nested(31));
		assertThat(deep.bindValues(ok)).containsKey("data");
		InvalidToolArgumentsException refused = catchThrowableOfType(InvalidToolArgumentsException.class,
				() -> deep.bindValues(Map.of("data", nested(32))));
		String json = "{\"data\":" + "[".repeat(32) + "]".repeat(32) + "}";
		assertThat(refused)
			.hasMessage(catchThrowableOfType(InvalidToolArgumentsException.class, () -> deep.bind(json)).getMessage())
			.hasMessageContaining("'data'")
			.hasMessageContaining("nested deeper than 32 levels");
	}

	private static Object nested(int levels) {
		Object value = List.of();
		for (int i = 1; i < levels; i++) {
			value = List.of(value);
		}
		return value;
	}

	private static Type listOf(Class<?> element) {
		return MAPPER.getTypeFactory().constructCollectionType(List.class, element);
	}

	record Stop(String name, int nights) {
	}

	enum Unit {

		KM, MILES

	}

}
